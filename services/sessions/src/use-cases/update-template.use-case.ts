import { withUniqueAs } from '@pp/db';
import { ValidationError } from '@pp/http';
import { DuplicateNameError } from '../errors.ts';
import type { TemplateInput } from './create-template.use-case.ts';
import type { SessionsContext } from './shared/context.ts';
import { presetOf } from './shared/presets.ts';
import { findTemplate, keptStories, settingsProblemsOf } from './shared/templates.ts';

/** Changes what the body names of a template of the owner; `settings` and `stories` are replaced whole. */
export async function updateTemplate(
  ctx: SessionsContext,
  ownerId: string,
  rawId: string,
  patch: Partial<TemplateInput>,
) {
  const template = await findTemplate(ctx.em, ownerId, rawId);
  const settings = patch.settings === undefined ? template.settings : presetOf(patch.settings);
  const problems = settingsProblemsOf(settings);
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);
  Object.assign(template, {
    name: patch.name ?? template.name,
    description: patch.description ?? template.description,
    settings,
    stories: patch.stories === undefined ? template.stories : keptStories(patch.stories),
    updatedAt: ctx.now(),
  });
  await withUniqueAs(
    () => new DuplicateNameError('template'),
    () => ctx.em.flush(),
  );
  return template;
}
