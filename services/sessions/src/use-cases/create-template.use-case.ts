import { withUniqueAs } from '@pp/db';
import { ValidationError } from '@pp/http';
import { Template } from '../db/entities/index.ts';
import { DuplicateNameError } from '../errors.ts';
import type { SessionsContext } from './shared/context.ts';
import { presetOf, type PresetInput } from './shared/presets.ts';
import { keptStories, settingsProblemsOf } from './shared/templates.ts';

export interface TemplateInput {
  name: string;
  description?: string;
  settings?: PresetInput;
  stories?: Array<{ title: string; description?: string; acceptance_criteria?: string }>;
}

/** A new room template of the owner: settings and stories in order; a name in use (any case) is 409. */
export async function createTemplate(ctx: SessionsContext, ownerId: string, input: TemplateInput) {
  const settings = presetOf(input.settings ?? {});
  const problems = settingsProblemsOf(settings);
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);
  const now = ctx.now();
  const template = ctx.em.create(Template, {
    ownerId,
    name: input.name,
    description: input.description ?? '',
    settings,
    stories: keptStories(input.stories ?? []),
    createdAt: now,
    updatedAt: now,
  });
  await withUniqueAs(
    () => new DuplicateNameError('template'),
    () => ctx.em.flush(),
  );
  return template;
}
