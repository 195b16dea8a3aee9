import { deleteInBatches, type EntityManager } from '@pp/db';
import { deleteExpiredOAuthStates } from '../db/oauth-state.repository.ts';

/**
 * Deletes the sign-on states that expired: a callback takes only its own state, unexpired, so those of
 * sign-ons abandoned at the provider (or back too late) stay until this. A thousand at a time, until
 * none is left or the unit stops, then the table is vacuumed; how many went.
 */
export const sweepOAuthStates = (em: EntityManager, now: Date, stopped: () => boolean): Promise<number> =>
  deleteInBatches(em, {
    vacuum: 'oauth_states',
    size: 1_000,
    deleteBatch: (size) => deleteExpiredOAuthStates(em, now, size),
    stopped,
  });
