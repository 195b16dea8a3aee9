import { ensureWorkspace } from '../db/workspace.repository.ts';
import type { SessionsContext } from './shared/context.ts';

/** The caller's workspace, made on first use. */
export const getWorkspace = (ctx: SessionsContext, ownerId: string) =>
  ensureWorkspace(ctx.em, ownerId, ctx.now());
