import { isUuid } from '@pp/contracts';
import { ForbiddenError } from '@pp/http';
import { enqueue } from '@pp/events';
import type { TokenKind } from '../domain/token.ts';
import { findTokenById } from '../db/token.repository.ts';
import { TokenNotFoundError } from '../errors.ts';
import { SOURCE, type IdentityContext } from './shared/context.ts';

/**
 * Revokes one of the caller's tokens (any kind, so an access token can be signed out too) and
 * announces `token.revoked` in the same commit: every gateway replica drops it from its cache.
 */
export async function revokeToken(ctx: IdentityContext, userId: string, tokenId: string) {
  if (!isUuid(tokenId)) throw new TokenNotFoundError();
  const token = await findTokenById(ctx.em, tokenId);
  if (!token || token.revokedAt) throw new TokenNotFoundError();
  if (token.userId !== userId) throw new ForbiddenError('This token belongs to another account', 'forbidden');
  token.revokedAt = ctx.now();
  enqueue(
    ctx.em,
    'token.revoked',
    { token_id: token.id, user_id: userId, kind: token.kind as TokenKind },
    { source: SOURCE },
  );
  await ctx.em.flush();
  ctx.publish();
  return token;
}
