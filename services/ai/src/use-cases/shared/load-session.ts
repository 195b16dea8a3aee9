import { sessionCodeOf, type SessionSnapshot, type StoryForUnits } from '@pp/contracts';
import {
  NoCurrentStoryError,
  NotSessionOwnerError,
  SessionNotFoundError,
  StoryNotFoundError,
} from '../../errors.ts';
import type { AiContext } from './context.ts';

/**
 * The session as the sessions unit has it now (its owner may not be a moment old in an event), for its
 * owner only: 404 for an unknown code, then 403 for anyone else.
 */
export async function ownedSession(ctx: AiContext, userId: string, code: string): Promise<SessionSnapshot> {
  const known = sessionCodeOf(code);
  if (!known) throw new SessionNotFoundError();
  const session = await ctx.sessions.lookup(known);
  if (!session) throw new SessionNotFoundError();
  if (session.owner_id !== userId) throw new NotSessionOwnerError();
  return session;
}

/**
 * The story asked for, or else the current one (the one open for votes): the stories unit is asked for
 * that one story only, not the session's whole backlog.
 */
export async function chosenStory(
  ctx: AiContext,
  sessionId: string,
  storyId?: string,
): Promise<StoryForUnits> {
  const [story] = await ctx.stories.list(sessionId, storyId ? { ids: [storyId] } : { status: ['voting'] });
  if (story) return story;
  throw storyId ? new StoryNotFoundError() : new NoCurrentStoryError();
}

/** The session, owned by the caller, and one of its stories (the current one by default). */
export async function ownedStory(ctx: AiContext, userId: string, code: string, storyId?: string) {
  const session = await ownedSession(ctx, userId, code);
  return { session, story: await chosenStory(ctx, session.id, storyId) };
}
