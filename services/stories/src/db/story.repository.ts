import type { EntityManager } from '@pp/db';
import type { StoryStatus } from '../domain/story-queue.ts';
import { Story, type StoryRecord } from './entities/index.ts';

export const findStory = (em: EntityManager, id: string) => em.findOne(Story, { id }, { refresh: true });

/** The session's stories in queue order (fresh from the database, for use under the session lock). */
export const storiesOf = (em: EntityManager, sessionId: string) =>
  em.find(Story, { sessionId }, { orderBy: { position: 'asc' }, refresh: true });

export interface NewStory {
  /** Chosen by the caller: a change runs twice (planned, then committed) and must make the same story. */
  id: string;
  sessionId: string;
  title: string;
  description: string;
  acceptanceCriteria: string;
  status: StoryStatus;
  position: number;
}

/** A new story's record (written by the change that makes it). */
export function newStory(data: NewStory, now: Date): StoryRecord {
  return {
    ...data,
    finalEstimate: null,
    votes: null,
    revealedAt: null,
    votingStartedAt: data.status === 'voting' ? now : null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Stories still open at their session's vote-by deadline: `voting`, opened before the deadline, and the
 * deadline has passed. A story opened after the deadline is left to the owner, and an archived
 * session (read-only) is left as it is.
 */
export async function overdueStoryIds(em: EntityManager, now: Date, limit = 50): Promise<string[]> {
  const rows = (await em.getConnection().execute(
    `select st.id from stories st join sessions se on se.id = st.session_id
      where st.status = 'voting' and se.status <> 'archived'
        and se.voteby_enabled and se.vote_by_at is not null and se.vote_by_at <= ?
        and (st.voting_started_at is null or st.voting_started_at <= se.vote_by_at)
      order by se.vote_by_at limit ?`,
    [now, limit],
    'all',
  )) as Array<{ id: string }>;
  return rows.map((r) => r.id);
}
