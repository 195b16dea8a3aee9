import { EVENT_RETENTION_SECONDS } from '@pp/events';
import { deleteInBatches } from '@pp/db';
import { pruneSyncLogs } from '../db/sync-log.repository.ts';
import type { IntegrationsContext } from './shared/context.ts';

/**
 * How long the sync log is kept. An automatic sync is recorded once per event and story, which is
 * what keeps a redelivered story.revealed from syncing twice: the log must outlive every event that
 * could still be delivered.
 */
export const SYNC_LOG_DAYS = 90;
if (SYNC_LOG_DAYS * 86_400 <= EVENT_RETENTION_SECONDS)
  throw new Error('the sync log must be kept longer than the events');

/** Forgets sync logs older than 90 days, a thousand at a time, then vacuums the table. */
export async function forgetOldSyncLogs(
  ctx: Pick<IntegrationsContext, 'em' | 'now'>,
  stopped: () => boolean,
): Promise<number> {
  const before = new Date(ctx.now().getTime() - SYNC_LOG_DAYS * 86_400_000);
  return deleteInBatches(ctx.em, {
    vacuum: 'sync_logs',
    size: 1_000,
    deleteBatch: (size) => pruneSyncLogs(ctx.em, before, size),
    stopped,
  });
}
