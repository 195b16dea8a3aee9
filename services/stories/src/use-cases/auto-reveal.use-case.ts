import type { EventData } from '@pp/contracts';
import { findStory } from '../db/story.repository.ts';
import { SessionNotFoundError, StoryAlreadyRevealedError, StoryNotFoundError } from '../stories.errors.ts';
import type { StoriesContext } from './context.ts';
import { loadSession } from './load-session.ts';
import { revealStory } from './reveal-story.use-case.ts';

const gone = (err: unknown) =>
  err instanceof StoryAlreadyRevealedError ||
  err instanceof StoryNotFoundError ||
  err instanceof SessionNotFoundError;

/**
 * vote.cast: when every voting participant has voted, the session has auto_reveal on and the story
 * is still the current one, reveal it (the same reveal as the owner's). Returns whether it did.
 */
export async function revealWhenAllVoted(
  ctx: StoriesContext,
  vote: EventData<'vote.cast'>,
): Promise<boolean> {
  if (vote.auto_reveal === false) return false; // said by the event: no read of the session needed
  try {
    const session = await loadSession(ctx, vote.session_id);
    if (!session.autoReveal) return false;
    const story = await findStory(ctx.em, vote.story_id);
    if (!story || story.status !== 'voting' || story.sessionId !== session.id) return false;
    // Votes commit side by side, so the count an event carries may miss one committed at the same
    // moment; every vote's event comes after its commit, so asking now sees the last vote too.
    const allVoted = vote.stats.all_voted || (await ctx.sessions.stats(session.id, story.id)).all_voted;
    if (!allVoted) return false;
    await revealStory(ctx, { kind: 'system', reason: 'auto_reveal' }, story.id);
    return true;
  } catch (err) {
    if (gone(err)) return false;
    throw err;
  }
}

/** The vote-by deadline passed while the story was open: reveal it. Returns whether it did. */
export async function revealAtDeadline(ctx: StoriesContext, storyId: string): Promise<boolean> {
  try {
    await revealStory(ctx, { kind: 'system', reason: 'vote_by_deadline' }, storyId);
    return true;
  } catch (err) {
    if (gone(err)) return false;
    throw err;
  }
}
