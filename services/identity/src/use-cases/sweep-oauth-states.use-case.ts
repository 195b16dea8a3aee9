import type { EntityManager } from '@pp/db';
import { deleteExpiredOAuthStates, vacuumOAuthStates } from '../db/oauth-state.repository.ts';

/** States deleted per statement: few locks and a short statement, however many piled up. */
const BATCH = 1_000;

/**
 * Deletes the sign-on states that expired: a callback takes only its own state, unexpired, so those of
 * sign-ons abandoned at the provider (or back too late) stay until this. A batch at a time, until none
 * is left or the unit stops, then the table is vacuumed (autovacuum may be off or behind); how many went.
 */
export async function sweepOAuthStates(
  em: EntityManager,
  now: Date,
  stopped: () => boolean,
): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await deleteExpiredOAuthStates(em, now, BATCH);
    total += n;
    if (n < BATCH || stopped()) break;
  }
  if (total > 0) await vacuumOAuthStates(em);
  return total;
}
