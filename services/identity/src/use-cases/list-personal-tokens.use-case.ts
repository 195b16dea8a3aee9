import { listPersonalTokens } from '../db/token.repository.ts';
import type { IdentityContext } from './context.ts';

export const listTokens = (ctx: IdentityContext, userId: string) =>
  listPersonalTokens(ctx.em, userId, ctx.now());
