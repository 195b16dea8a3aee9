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
}

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
    'select id, session_id, status, sealed from rounds where id = ? for update',
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

/** A reset: the round is open again (its votes are deleted beside it). */
export const reopenRound = (tx: EntityManager, storyId: string) =>
  run(tx, 'update rounds set sealed = false, sealed_at = null where id = ?', [storyId]);

/** A reveal: the round is sealed, once (a sealed round keeps the time it was first sealed). */
export const sealRound = (tx: EntityManager, storyId: string, at: Date) =>
  run(
    tx,
    `update rounds set status = 'revealed', sealed = true, sealed_at = coalesce(sealed_at, ?) where id = ?`,
    [at, storyId],
  );

/** Deleted stories: their rounds go, and their votes with them. */
export async function forgetRounds(tx: EntityManager, sessionId: string, storyIds: string[]): Promise<void> {
  if (storyIds.length === 0) return;
  await run(tx, 'delete from rounds where session_id = ? and id in (?)', [sessionId, storyIds]);
}

/**
 * Makes `story` the session's current round, open for votes, or leaves none: the round that was
 * current goes back to pending first (its votes kept), so the session never has two.
 */
export async function setCurrentRound(
  tx: EntityManager,
  sessionId: string,
  story: RoundStory | null,
): Promise<void> {
  await run(
    tx,
    `update rounds set status = 'pending' where session_id = ? and status = 'voting' and id is distinct from ?`,
    [sessionId, story?.id ?? null],
  );
  if (!story) return;
  await run(
    tx,
    `insert into rounds (id, session_id, title, position, status) values (?, ?, ?, ?, 'voting')
     on conflict (id) do update set title = excluded.title, position = excluded.position, status = 'voting',
       sealed = false, sealed_at = null
     where rounds.session_id = excluded.session_id`,
    [story.id, sessionId, story.title, story.position],
  );
}
