import { defineEntity, p } from '@pp/db';
import type { PresetSettings } from '../../domain/presets.ts';

/** An owner's workspace (one each, made on first use): its name and what new sessions start with. */
const WorkspaceSchema = defineEntity({
  name: 'Workspace',
  tableName: 'workspaces',
  properties: {
    id: p.integer().primary(),
    ownerId: p.string(),
    name: p.string(),
    /** The settings the owner chose; the built-in ones stand for the rest. */
    defaults: p.json<Partial<PresetSettings>>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export class Workspace extends WorkspaceSchema.class {}
WorkspaceSchema.setClass(Workspace);
