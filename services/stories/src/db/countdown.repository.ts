import type { EntityManager } from '@pp/db';

const execute = (em: EntityManager, sql: string, params: unknown[]) =>
  em.getConnection().execute(sql, params, 'run', em.getTransactionContext());

/**
 * Keeps what the sessions unit announced of a round's countdown: when it reveals the story (null: it
 * does not, or no longer), unless a newer announcement is kept already.
 */
export async function keepCountdown(
  em: EntityManager,
  c: { storyId: string; sessionId: string; revealAt: Date | null; setAt: Date },
): Promise<void> {
  await execute(
    em,
    `insert into round_countdowns (story_id, session_id, reveal_at, set_at) values (?, ?, ?, ?)
     on conflict (story_id) do update set reveal_at = excluded.reveal_at, set_at = excluded.set_at
     where round_countdowns.set_at <= excluded.set_at`,
    [c.storyId, c.sessionId, c.revealAt, c.setAt],
  );
}

/** A countdown tried at zero (revealed, or found ended): let go, unless it was started again meanwhile. */
export async function forgetCountdown(em: EntityManager, storyId: string, revealAt: Date): Promise<void> {
  await execute(em, 'update round_countdowns set reveal_at = null where story_id = ? and reveal_at = ?', [
    storyId,
    revealAt,
  ]);
}

/** Countdowns long past are of no use any more (their rounds were revealed, or ended otherwise). */
export async function pruneCountdowns(em: EntityManager, before: Date): Promise<void> {
  await execute(
    em,
    'delete from round_countdowns where set_at < ? and (reveal_at is null or reveal_at < ?)',
    [before, before],
  );
}
