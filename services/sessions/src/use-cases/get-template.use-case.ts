import type { SessionsContext } from './shared/context.ts';
import { findTemplate } from './shared/templates.ts';

/** A template of the owner with its stories. */
export const getTemplate = (ctx: SessionsContext, ownerId: string, rawId: string) =>
  findTemplate(ctx.em, ownerId, rawId);
