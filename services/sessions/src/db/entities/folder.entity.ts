import { defineEntity, p } from '@pp/db';
import { nameKey } from '../../domain/owner-names.ts';

/** A folder of an owner's sessions: a name (unique per owner, in any case) and a colour. */
const FolderSchema = defineEntity({
  name: 'Folder',
  tableName: 'folders',
  properties: {
    id: p.integer().primary(),
    ownerId: p.string(),
    name: p.string(),
    /** What the name is unique by, per owner (see nameKey). */
    nameKey: p
      .string()
      .onCreate((e: { name: string }) => nameKey(e.name))
      .onUpdate((e: { name: string }) => nameKey(e.name)),
    /** `#rrggbb`, lowercase. */
    color: p.string(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export class Folder extends FolderSchema.class {}
FolderSchema.setClass(Folder);
