import { listPersonalTokens } from '../db/token.repository.ts';
import type { IdentityContext } from './shared/context.ts';

export const listTokens = (ctx: IdentityContext, userId: string) =>
  listPersonalTokens(ctx.em, userId, ctx.now());
