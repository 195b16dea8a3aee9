import { defineEntity, p } from '@pp/db';

/** A folder of an owner's sessions: a name (unique per owner, in any case) and a colour. */
const FolderSchema = defineEntity({
  name: 'Folder',
  tableName: 'folders',
  properties: {
    id: p.integer().primary(),
    ownerId: p.string(),
    name: p.string(),
    /** `#rrggbb`, lowercase. */
    color: p.string(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export class Folder extends FolderSchema.class {}
FolderSchema.setClass(Folder);
