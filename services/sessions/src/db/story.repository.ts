import type { EntityManager } from '@pp/db';
import { row, run } from './sql.ts';

export type StoryStatus = 'pending' | 'voting' | 'revealed';
export interface StorySummary {
  id: string;
  title: string;
  status: StoryStatus;
  position: number;
}

/**
 * Records what an event says of a story. Title and position, and status, each only when the event
 * is newer than what set them last: events may arrive late or twice.
 */
export async function applyStorySnapshot(
  em: EntityManager,
  sessionId: string,
  story: StorySummary,
  at: Date,
): Promise<void> {
  await run(
    em,
    `insert into stories (id, session_id, title, status, position, content_at, status_at)
     values (?, ?, ?, ?, ?, ?, ?)
     on conflict (id) do update set
       title = case when stories.content_at is null or stories.content_at <= excluded.content_at
                    then excluded.title else stories.title end,
       position = case when stories.content_at is null or stories.content_at <= excluded.content_at
                    then excluded.position else stories.position end,
       content_at = greatest(stories.content_at, excluded.content_at),
       status = case when stories.status_at is null or stories.status_at <= excluded.status_at
                    then excluded.status else stories.status end,
       status_at = greatest(stories.status_at, excluded.status_at)`,
    [story.id, sessionId, story.title, story.status, story.position, at, at],
  );
}

/** Sets the status of a story an event names by id only (next or previous story). */
export async function applyStoryStatus(
  em: EntityManager,
  sessionId: string,
  storyId: string,
  status: StoryStatus,
  at: Date,
): Promise<void> {
  await run(
    em,
    `insert into stories (id, session_id, status, status_at) values (?, ?, ?, ?)
     on conflict (id) do update set status = excluded.status, status_at = excluded.status_at
       where stories.status_at is null or stories.status_at <= excluded.status_at`,
    [storyId, sessionId, status, at],
  );
}

/** One current story per session: another `voting` story set by an older event goes back to pending. */
export async function demoteOtherVotingStories(
  em: EntityManager,
  sessionId: string,
  storyId: string,
  at: Date,
): Promise<void> {
  await run(
    em,
    `update stories set status = 'pending', status_at = ?
      where session_id = ? and status = 'voting' and id <> ? and (status_at is null or status_at <= ?)`,
    [at, sessionId, storyId, at],
  );
}

export const deleteStory = (em: EntityManager, storyId: string) =>
  run(em, 'delete from stories where id = ?', [storyId]);

export interface Round {
  id: string;
  session_id: string;
  sealed: boolean;
}

/**
 * Locks a story's round for a seal or a reset, creating it first when sessions has not heard of the
 * story yet (the story.created event may still be on its way).
 */
export async function lockRound(
  em: EntityManager,
  sessionId: string,
  storyId: string,
  statusIfNew: StoryStatus,
): Promise<Round | undefined> {
  await run(em, `insert into stories (id, session_id, status) values (?, ?, ?) on conflict (id) do nothing`, [
    storyId,
    sessionId,
    statusIfNew,
  ]);
  return row<Round>(em, 'select id, session_id, sealed from stories where id = ? for update', [storyId]);
}

/** Seals a round (once: a sealed round keeps the time it was first sealed). */
export const sealRoundOf = (em: EntityManager, storyId: string, at: Date) =>
  run(em, 'update stories set sealed = true, sealed_at = ? where id = ? and sealed = false', [at, storyId]);

export const openRoundOf = (em: EntityManager, storyId: string) =>
  run(em, 'update stories set sealed = false, sealed_at = null where id = ?', [storyId]);
