import type { EventData, EventEnvelope } from '@pp/contracts';
import { enqueue } from '@pp/events';
import { importedStory } from '../db/import.repository.ts';
import { eventSynced, insertSyncLogs } from '../db/sync-log.repository.ts';
import { findConnection } from '../db/connection.repository.ts';
import { mayBeImported } from '../domain/story-ids.ts';
import { SOURCE, type IntegrationsContext } from './shared/context.ts';
import { logEntry, writeBack } from './shared/write-back.ts';

/**
 * story.revealed of an imported story whose connection has auto_sync: its final estimate is written
 * back at once. Once per event and story (a redelivery finds the log row); a crash between the write
 * and the row may write a second comment, never lose one.
 */
export async function syncOnReveal(
  ctx: IntegrationsContext,
  event: EventEnvelope<EventData<'story.revealed'>>,
) {
  const { story, session_id, session_code } = event.data;
  if (!mayBeImported(story.id)) return;
  const imported = await importedStory(ctx.em, story.id);
  if (!imported?.connectionId) return;
  const connection = await findConnection(ctx.em, imported.connectionId);
  if (!connection || connection.settings.auto_sync !== true) return;
  if (await eventSynced(ctx.em, event.id, story.id)) return;
  const result = await writeBack(ctx, imported, connection, story.final_estimate);
  const base = {
    ownerId: connection.ownerId,
    sessionId: session_id,
    sessionCode: session_code,
    trigger: 'auto' as const,
    eventId: event.id,
  };
  await ctx.em.transactional(async (em) => {
    const written = await insertSyncLogs(em, [logEntry(result, base, connection.id)], ctx.now());
    if (written === 0) return;
    const counts = { synced: 0, failed: 0, skipped: 0, [result.status]: 1 };
    enqueue(em, 'estimates.synced', { session_id, session_code, ...counts }, { source: SOURCE });
  });
  ctx.publish();
}
