import { defineEntity, p } from '@pp/db';
import { nameKey } from '../../domain/owner-names.ts';
import type { PresetSettings } from '../../domain/presets.ts';

/** A story as a template keeps it. */
export interface TemplateStory {
  title: string;
  description: string;
  acceptance_criteria: string;
}

/** A room template of an owner: the settings it names and the stories a session made from it starts with. */
const TemplateSchema = defineEntity({
  name: 'Template',
  tableName: 'templates',
  properties: {
    id: p.integer().primary(),
    ownerId: p.string(),
    name: p.string(),
    /** What the name is unique by, per owner (see nameKey). */
    nameKey: p
      .string()
      .onCreate((e: { name: string }) => nameKey(e.name))
      .onUpdate((e: { name: string }) => nameKey(e.name)),
    description: p.text(),
    /** Only the settings the template names: the workspace defaults stand for the others. */
    settings: p.json<Partial<PresetSettings>>(),
    stories: p.json<TemplateStory[]>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export class Template extends TemplateSchema.class {}
TemplateSchema.setClass(Template);
