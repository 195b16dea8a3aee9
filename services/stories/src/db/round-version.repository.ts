import type { EntityManager } from '@pp/db';

const sql = async <T>(em: EntityManager, query: string, params: unknown[]) =>
  (await em.getConnection().execute(query, params, 'all', em.getTransactionContext())) as T[];

/**
 * The round of this version is what both units hold (a change refused there changed nothing): there
 * is nothing to state again, unless a later change has taken a version since.
 */
export const settleRound = (em: EntityManager, sessionId: string, version: number) =>
  sql(em, 'update sessions set round_unsettled_since = null where id = ? and round_version = ?', [
    sessionId,
    version,
  ]);

/** Sessions whose round has been unsettled for longer than `graceMs` by the database's clock (oldest first). */
export async function unsettledRounds(em: EntityManager, graceMs: number, limit = 20): Promise<string[]> {
  const found = await sql<{ id: string }>(
    em,
    `select id from sessions where round_unsettled_since < now() - ? * interval '1 millisecond'
      order by round_unsettled_since limit ?`,
    [graceMs, limit],
  );
  return found.map((r) => r.id);
}

/**
 * An archive of the session was asked at `at`: every change of its stories asks the sessions unit
 * from now on, and one planned before this (which may not have asked) plans again, since its round
 * version is no longer the session's.
 */
export const markArchiving = (em: EntityManager, sessionId: string, at: string) =>
  sql(
    em,
    `update sessions set archiving_since = greatest(archiving_since, ?::timestamptz),
            round_version = round_version + 1
      where id = ?`,
    [at, sessionId],
  );

/** The session was unarchived at `at`: archives asked before it no longer hold its changes. */
export const clearArchiving = (em: EntityManager, sessionId: string, at: string) =>
  sql(em, 'update sessions set archiving_since = null where id = ? and archiving_since < ?::timestamptz', [
    sessionId,
    at,
  ]);
