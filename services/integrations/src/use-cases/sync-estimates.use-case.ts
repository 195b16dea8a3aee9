import { enqueue } from '@pp/events';
import { importedInSession } from '../db/import.repository.ts';
import { insertSyncLogs } from '../db/sync-log.repository.ts';
import { SOURCE, type IntegrationsContext } from './shared/context.ts';
import { ownedSession } from './shared/owned-session.ts';
import { bounded, connectionsOf, logEntry, writeBack, type SyncResult } from './shared/write-back.ts';

/** Calls to trackers at the same time during one sync. */
const CONCURRENCY = 4;

/**
 * Writes the final estimate of each revealed, imported story of the session (of `story_ids` only,
 * when given) back to where it came from. Each story is synced, failed or skipped, with why; a sync
 * log row per story; announced by estimates.synced in the same commit as the rows.
 */
export async function syncEstimates(
  ctx: IntegrationsContext,
  ownerId: string,
  code: string,
  storyIds?: string[],
) {
  const session = await ownedSession(ctx, ownerId, code);
  // each story once: a request naming one twice (in another case too) gets one result and one log row
  const wanted = storyIds && [...new Set(storyIds.map((id) => id.toLowerCase()))];
  const imported = await importedInSession(ctx.em, session.id, wanted);
  const current = new Map((await ctx.units.stories(session.code)).map((s) => [s.id, s]));
  const connections = await connectionsOf(ctx, imported);
  const results: SyncResult[] = await bounded(imported, CONCURRENCY, (i) => {
    const story = current.get(i.storyId);
    const estimate = story?.status === 'revealed' ? story.final_estimate : null;
    return writeBack(ctx, i, i.connectionId ? connections.get(i.connectionId) : undefined, estimate);
  });
  const found = new Set(imported.map((i) => i.storyId));
  for (const id of wanted ?? [])
    if (!found.has(id))
      results.push({
        story_id: id,
        external_id: null,
        provider: 'none',
        status: 'skipped',
        estimate: null,
        modes: [],
        message: 'not an imported story of this session',
      });

  const count = (status: string) => results.filter((r) => r.status === status).length;
  const sync = { synced: count('synced'), failed: count('failed'), skipped: count('skipped'), results };
  const base = {
    ownerId,
    sessionId: session.id,
    sessionCode: session.code,
    trigger: 'manual' as const,
    eventId: null,
  };
  const byStory = new Map(imported.map((i) => [i.storyId, i.connectionId]));
  await ctx.em.transactional(async (em) => {
    await insertSyncLogs(
      em,
      results.map((r) => logEntry(r, base, byStory.get(r.story_id) ?? null)),
      ctx.now(),
    );
    enqueue(
      em,
      'estimates.synced',
      {
        session_id: session.id,
        session_code: session.code,
        synced: sync.synced,
        failed: sync.failed,
        skipped: sync.skipped,
      },
      { source: SOURCE },
    );
  });
  ctx.publish();
  return sync;
}
