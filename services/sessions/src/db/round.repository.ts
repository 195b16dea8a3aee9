import type { EntityManager } from '@pp/db';
import type { RoundStory } from '@pp/contracts';
import { row, run } from './sql.ts';

export type RoundStatus = 'pending' | 'voting' | 'revealed';

/** The current story as a session record shows it. */
export interface StorySummary {
  id: string;
  title: string;
  status: RoundStatus;
  position: number;
}

export interface LockedRound {
  id: string;
  session_id: string;
  status: RoundStatus;
  sealed: boolean;
  countdown_ends_at: Date | null;
  countdown_at_zero: string | null;
}

/**
 * The SQL of a round's changes, written once for the transaction's statements and the one-statement
 * round command. Each part takes its values as SQL expressions: `?` (in that order) in the
 * transaction, `$n` parameters in the prepared statement; `when` conditions the whole change.
 */
export const roundSql = {
  /** Seals a story's round once (it keeps the time it was first sealed); made sealed if the session had none. */
  seal: (p: { id: string; session: string; at: string; when?: string }) =>
    `insert into rounds (id, session_id, status, sealed, sealed_at)
     select ${p.id}, ${p.session}, 'revealed', true, ${p.at} where ${p.when ?? 'true'}
     on conflict (id) do update set status = 'revealed', sealed = true,
       sealed_at = coalesce(rounds.sealed_at, excluded.sealed_at), countdown_ends_at = null
     where rounds.session_id = excluded.session_id`,
  /** The session's current round, but `keep`, goes back to pending (its votes kept). */
  demote: (p: { session: string; keep: string; when?: string }) =>
    `update rounds set status = 'pending', countdown_ends_at = null
      where session_id = ${p.session} and status = 'voting' and id is distinct from ${p.keep} and ${p.when ?? 'true'}`,
  /**
   * The story's round is current and open for votes (unsealed); made if the session had none. A round
   * that was not open already (pending, or sealed) starts without a countdown. `unconfirmed` is the
   * version of a change the stories unit may not have committed yet (null for a round it restates from
   * what it committed): a round that was not open already takes it, and takes votes only once the
   * stories unit shows the story as its current one. A round open already keeps what it had (confirmed,
   * or the version of the change that opened it, whose commit confirms it); a restated one is confirmed.
   */
  promote: (p: {
    id: string;
    session: string;
    title: string;
    position: string;
    unconfirmed: string;
    when?: string;
  }) =>
    `insert into rounds (id, session_id, title, position, status, unconfirmed_version)
     select ${p.id}, ${p.session}, ${p.title}, ${p.position}, 'voting', ${p.unconfirmed} where ${p.when ?? 'true'}
     on conflict (id) do update set title = excluded.title, position = excluded.position, status = 'voting',
       sealed = false, sealed_at = null,
       countdown_ends_at = case when rounds.status = 'voting' and not rounds.sealed then rounds.countdown_ends_at end,
       unconfirmed_version = case when rounds.status = 'voting' and not rounds.sealed and excluded.unconfirmed_version is not null
         then rounds.unconfirmed_version else excluded.unconfirmed_version end
     where rounds.session_id = excluded.session_id`,
};

/**
 * Locks a story's round (FOR UPDATE), creating it first when the session has no round for the story
 * yet. The lock waits for every vote in flight on it (a vote holds the round share-locked), and
 * orders later votes after the change. Undefined when the story's round belongs to another session.
 */
export async function lockRound(
  tx: EntityManager,
  sessionId: string,
  storyId: string,
  statusIfNew: RoundStatus,
): Promise<LockedRound | undefined> {
  await run(tx, `insert into rounds (id, session_id, status) values (?, ?, ?) on conflict (id) do nothing`, [
    storyId,
    sessionId,
    statusIfNew,
  ]);
  const locked = await row<LockedRound>(
    tx,
    'select id, session_id, status, sealed, countdown_ends_at, countdown_at_zero from rounds where id = ? for update',
    [storyId],
  );
  return locked?.session_id === sessionId ? locked : undefined;
}

export async function isSealed(em: EntityManager, sessionId: string, storyId: string): Promise<boolean> {
  const found = await row<{ sealed: boolean }>(
    em,
    'select sealed from rounds where id = ? and session_id = ?',
    [storyId, sessionId],
  );
  return found?.sealed === true;
}

/**
 * A reset: the story's round is open again (its votes are deleted beside it, its countdown ends),
 * made pending when the session had no round for it. One statement that locks the round as `lockRound` does (waiting for
 * the votes in flight on it). False when the story's round belongs to another session.
 */
export async function reopenRound(tx: EntityManager, sessionId: string, storyId: string): Promise<boolean> {
  const reopened = await row<{ id: string }>(
    tx,
    `insert into rounds (id, session_id, status) values (?, ?, 'pending')
     on conflict (id) do update set sealed = false, sealed_at = null, countdown_ends_at = null
       where rounds.session_id = excluded.session_id
     returning id`,
    [storyId, sessionId],
  );
  return reopened !== undefined;
}

/**
 * A reveal: the story's round is sealed, once (a sealed round keeps the time it was first sealed),
 * made sealed when the session had no round for it. One statement that locks the round as
 * `lockRound` does. False when the story's round belongs to another session.
 */
export async function sealRound(
  tx: EntityManager,
  sessionId: string,
  storyId: string,
  at: Date,
): Promise<boolean> {
  const sealed = await row<{ id: string }>(
    tx,
    `${roundSql.seal({ id: '?::uuid', session: '?::uuid', at: '?::timestamptz' })} returning id`,
    [storyId, sessionId, at],
  );
  return sealed !== undefined;
}

/** Deleted stories: their rounds go, and their votes with them. */
export async function forgetRounds(tx: EntityManager, sessionId: string, storyIds: string[]): Promise<void> {
  if (storyIds.length === 0) return;
  await run(tx, 'delete from rounds where session_id = ? and id in (?)', [sessionId, storyIds]);
}

/**
 * Makes `story` the session's current round, open for votes, or leaves none: the round that was
 * current goes back to pending first (its votes kept), so the session never has two. `unconfirmed`:
 * the version of the change that makes it current, when the stories unit may not have committed it.
 */
export async function setCurrentRound(
  tx: EntityManager,
  sessionId: string,
  story: RoundStory | null,
  unconfirmed: number | null,
): Promise<void> {
  const demote = roundSql.demote({ session: '?::uuid', keep: '?::uuid' });
  if (!story) {
    await run(tx, demote, [sessionId, null]);
    return;
  }
  // One statement: the two touch different rows (the one-current-round constraint is checked at commit).
  await run(
    tx,
    `with demoted as (${demote})
     ${roundSql.promote({ id: '?::uuid', session: '?::uuid', title: '?::text', position: '?::int', unconfirmed: '?::int' })}`,
    [sessionId, story.id, story.id, sessionId, story.title, story.position, unconfirmed],
  );
}

/**
 * The stories unit shows the round's story as its current one: the change that opened the round was
 * committed there, and the round takes votes. Only if no later change opened it again meanwhile.
 */
export async function confirmRound(
  em: EntityManager,
  sessionId: string,
  storyId: string,
  version: number,
): Promise<boolean> {
  const confirmed = await run(
    em,
    'update rounds set unconfirmed_version = null where id = ? and session_id = ? and unconfirmed_version = ?',
    [storyId, sessionId, version],
  );
  return confirmed > 0;
}
