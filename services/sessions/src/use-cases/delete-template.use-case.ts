import type { SessionsContext } from './shared/context.ts';
import { findTemplate } from './shared/templates.ts';

/** Deletes a template of the owner (sessions made from it stay as they are). */
export async function deleteTemplate(ctx: SessionsContext, ownerId: string, rawId: string) {
  const template = await findTemplate(ctx.em, ownerId, rawId);
  await ctx.em.remove(template).flush();
  return template;
}
