import type { EntityManager } from '@pp/db';
import { findSessionById } from '../db/session.repository.ts';
import { lockRound, type StoryStatus } from '../db/story.repository.ts';
import { SessionNotFoundError, StoryNotFoundError } from '../sessions.errors.ts';
import type { SessionsContext } from './context.ts';

/**
 * Runs the work in a transaction holding the story's round lock (the row is made when sessions has
 * not heard of the story yet). 404 when the session is unknown or the story belongs to another one.
 */
export async function inLockedRound<T>(
  ctx: SessionsContext,
  sessionId: string,
  storyId: string,
  statusIfNew: StoryStatus,
  work: (tx: EntityManager) => Promise<T>,
): Promise<T> {
  const session = await findSessionById(ctx.em, sessionId);
  if (!session) throw new SessionNotFoundError();
  return ctx.em.transactional(async (tx) => {
    const round = await lockRound(tx, session.id, storyId, statusIfNew);
    if (round?.session_id !== session.id) throw new StoryNotFoundError();
    return work(tx);
  });
}
