import type { EntityManager } from '@pp/db';
import type { TemplateStory } from '../../db/entities/index.ts';
import { findTemplateById } from '../../db/template.repository.ts';
import { presetProblems, type PresetSettings } from '../../domain/presets.ts';
import { rowIdOf } from '../../domain/row-id.ts';
import { owned } from './owned.ts';
import { prefixed } from './presets.ts';

/** A template of the owner by the path's id: an id no row can have is a 404, another owner's a 403. */
export async function findTemplate(em: EntityManager, ownerId: string, rawId: string) {
  const id = rowIdOf(rawId);
  return owned(id === undefined ? null : await findTemplateById(em, id), ownerId, 'template');
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
