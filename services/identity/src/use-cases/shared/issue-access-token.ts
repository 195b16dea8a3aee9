import { createToken, type IssuedToken } from '../../db/token.repository.ts';
import type { IdentityContext } from './context.ts';

/** A session (access) token for a user who just proved who they are; persisted with the caller's flush. */
export function issueAccessToken(ctx: IdentityContext, userId: string, name: string): IssuedToken {
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + ctx.config.ACCESS_TOKEN_TTL_SECONDS * 1000);
  return createToken(ctx.em, { userId, kind: 'access', name, expiresAt }, now);
}
