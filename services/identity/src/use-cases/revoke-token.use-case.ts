import { isUuid } from '@pp/contracts';
import { ForbiddenError } from '@pp/http';
import { findTokenByIdLocked } from '../db/token.repository.ts';
import { TokenNotFoundError } from '../errors.ts';
import type { IdentityContext } from './shared/context.ts';
import { markRevoked } from './shared/mark-revoked.ts';

/**
 * Revokes one of the caller's tokens (any kind, so an access token can be signed out too) and
 * announces `token.revoked` in the same commit: every gateway replica drops it from its cache. The
 * answer waits until the event has gone out, so that the client's next request, to any replica, comes
 * after it. Under the token's row lock, so that of revocations at once one succeeds and the others
 * find it revoked (404).
 */
export async function revokeToken(ctx: IdentityContext, userId: string, tokenId: string) {
  if (!isUuid(tokenId)) throw new TokenNotFoundError();
  const token = await ctx.em.transactional(async (tx) => {
    const found = await findTokenByIdLocked(tx, tokenId);
    if (!found || found.revokedAt) throw new TokenNotFoundError();
    if (found.userId !== userId)
      throw new ForbiddenError('This token belongs to another account', 'forbidden');
    markRevoked(tx, found, ctx.now());
    return found;
  });
  await ctx.publishNow();
  return token;
}
