import type { EventEnvelope } from '@pp/contracts';
import type { EntityManager } from '@pp/db';

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

/** Forgets the events older than `before`; how many went. */
export async function forgetStoryHistory(em: EntityManager, before: Date): Promise<number> {
  const result = (await em
    .getConnection()
    .execute('delete from story_history where occurred_at < ?', [before], 'run')) as {
    affectedRows?: number;
  };
  return result.affectedRows ?? 0;
}

/** Autovacuum may be off or behind: the pruning reclaims what it deleted itself. */
export async function vacuumStoryHistory(em: EntityManager): Promise<void> {
  await em.getConnection().execute('vacuum (skip_locked) story_history', [], 'run');
}
