import { deleteTemplateById } from '../db/template.repository.ts';
import { TemplateNotFoundError } from '../errors.ts';
import type { SessionsContext } from './shared/context.ts';
import { findTemplate } from './shared/templates.ts';

/** Deletes a template of the owner (sessions made from it stay as they are); once, when asked twice at once. */
export async function deleteTemplate(ctx: SessionsContext, ownerId: string, rawId: string) {
  const template = await findTemplate(ctx.em, ownerId, rawId);
  if (!(await deleteTemplateById(ctx.em, template.id))) throw new TemplateNotFoundError();
  return template;
}
