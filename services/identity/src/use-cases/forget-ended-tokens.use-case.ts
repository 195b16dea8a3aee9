import { deleteInBatches, type EntityManager } from '@pp/db';
import { deleteEndedTokens } from '../db/token.repository.ts';

/**
 * How long a token's row outlives the token: an expired or revoked token works nowhere (the gateway
 * is told of a revocation at once, and an expiry is checked on every use), and no list shows it.
 */
export const ENDED_TOKEN_DAYS = 30;

/**
 * Forgets the tokens that ended more than 30 days ago (every sign-in makes an access token that
 * expires a day later): a thousand at a time, then the table is vacuumed; how many went.
 */
export const forgetEndedTokens = (em: EntityManager, now: Date, stopped: () => boolean): Promise<number> => {
  const before = new Date(now.getTime() - ENDED_TOKEN_DAYS * 86_400_000);
  return deleteInBatches(em, {
    vacuum: 'tokens',
    size: 1_000,
    deleteBatch: (size) => deleteEndedTokens(em, before, size),
    stopped,
  });
};
