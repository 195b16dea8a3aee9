import type { EntityManager } from '@pp/db';
import type { TemplateStory } from '../../db/entities/index.ts';
import { findOwnTemplate } from '../../db/template.repository.ts';
import { presetProblems, type PresetSettings } from '../../domain/presets.ts';
import { rowIdOf } from '../../domain/row-id.ts';
import { TemplateNotFoundError } from '../../errors.ts';
import { prefixed } from './presets.ts';

/** A template of the owner by the path's id: another owner's, or an id no row can have, is a 404. */
export async function findTemplate(em: EntityManager, ownerId: string, rawId: string) {
  const id = rowIdOf(rawId);
  const template = id === undefined ? null : await findOwnTemplate(em, ownerId, id);
  if (!template) throw new TemplateNotFoundError();
  return template;
}

/** Problems of a template's settings, keyed `settings.<field>`. */
export const settingsProblemsOf = (settings: Partial<PresetSettings>) =>
  prefixed(presetProblems(settings), 'settings');

/** Stories as a template keeps them: every field there. */
export const keptStories = (
  stories: Array<{ title: string; description?: string; acceptance_criteria?: string }>,
): TemplateStory[] =>
  stories.map((s) => ({
    title: s.title,
    description: s.description ?? '',
    acceptance_criteria: s.acceptance_criteria ?? '',
  }));
