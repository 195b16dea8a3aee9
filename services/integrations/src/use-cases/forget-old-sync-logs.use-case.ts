import { EVENT_RETENTION_SECONDS } from '@pp/events';
import { pruneSyncLogs, vacuumSyncLogs } from '../db/sync-log.repository.ts';
import type { IntegrationsContext } from './shared/context.ts';

/**
 * How long the sync log is kept. An automatic sync is recorded once per event and story, which is
 * what keeps a redelivered story.revealed from syncing twice: the log must outlive every event that
 * could still be delivered.
 */
export const SYNC_LOG_DAYS = 90;
if (SYNC_LOG_DAYS * 86_400 <= EVENT_RETENTION_SECONDS)
  throw new Error('the sync log must be kept longer than the events');

const BATCH = 1_000;

/**
 * Forgets sync logs older than 90 days, a batch at a time so no statement holds many locks, then
 * vacuums the table (autovacuum may be off or behind).
 */
export async function forgetOldSyncLogs(
  ctx: Pick<IntegrationsContext, 'em' | 'now'>,
  stopped: () => boolean,
): Promise<number> {
  const before = new Date(ctx.now().getTime() - SYNC_LOG_DAYS * 86_400_000);
  let total = 0;
  for (;;) {
    const n = await pruneSyncLogs(ctx.em, before, BATCH);
    total += n;
    if (n < BATCH || stopped()) break;
  }
  if (total > 0) await vacuumSyncLogs(ctx.em);
  return total;
}
