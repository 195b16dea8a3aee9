import type { EventEnvelope } from '@pp/contracts';
import { withoutTableScans, type EntityManager } from '@pp/db';

/** The latest events of a session's story changes, newest first. */
export async function recentStoryEvents(em: EntityManager, sessionId: string, limit: number) {
  const rows = (await em
    .getConnection()
    .execute('select envelope from story_history where session_id = ? order by occurred_at desc limit ?', [
      sessionId,
      limit,
    ])) as Array<{ envelope: EventEnvelope }>;
  return rows.map((r) => r.envelope);
}

export const FORGET_STORY_HISTORY_SQL = 'delete from story_history where occurred_at < ?';

/** Forgets the events older than `before`, found through the index of their time; how many went. */
export const forgetStoryHistory = (em: EntityManager, before: Date): Promise<number> =>
  withoutTableScans(em, async (tx) => {
    const result = (await tx
      .getConnection()
      .execute(FORGET_STORY_HISTORY_SQL, [before], 'run', tx.getTransactionContext())) as {
      affectedRows?: number;
    };
    return result.affectedRows ?? 0;
  });

/** Autovacuum may be off or behind: the pruning reclaims what it deleted itself. */
export async function vacuumStoryHistory(em: EntityManager): Promise<void> {
  await em.getConnection().execute('vacuum (skip_locked) story_history', [], 'run');
}
