import type { EventData } from '@pp/contracts';
import type { Story } from '../db/entities/index.ts';
import { findStory, storiesOf } from '../db/story.repository.ts';
import { SessionNotFoundError, StoryAlreadyRevealedError, StoryNotFoundError } from '../stories.errors.ts';
import type { StoriesContext } from './context.ts';
import { loadSession } from './load-session.ts';
import { revealStory } from './reveal-story.use-case.ts';

const gone = (err: unknown) =>
  err instanceof StoryAlreadyRevealedError ||
  err instanceof StoryNotFoundError ||
  err instanceof SessionNotFoundError;

/**
 * When the session has auto_reveal on, the story is still its current one and every voting
 * participant has voted, reveal it (the same reveal as the owner's). Returns whether it did.
 */
async function revealIfEveryoneVoted(
  ctx: StoriesContext,
  sessionId: string,
  findCurrent: () => Promise<Story | null | undefined>,
  saidAllVoted = false,
): Promise<boolean> {
  try {
    const session = await loadSession(ctx, sessionId);
    if (!session.autoReveal) return false;
    const story = await findCurrent();
    if (!story || story.status !== 'voting' || story.sessionId !== session.id) return false;
    // Votes commit side by side, so the count an event carries may miss one committed at the same
    // moment; every event comes after its commit, so asking now sees the last vote too.
    const allVoted = saidAllVoted || (await ctx.sessions.stats(session.id, story.id)).all_voted;
    if (!allVoted) return false;
    await revealStory(ctx, { kind: 'system', reason: 'auto_reveal' }, story.id);
    return true;
  } catch (err) {
    if (gone(err)) return false;
    throw err;
  }
}

/** vote.cast: auto_reveal once the last voting participant has voted. */
export async function revealWhenAllVoted(
  ctx: StoriesContext,
  vote: EventData<'vote.cast'>,
): Promise<boolean> {
  if (vote.auto_reveal === false) return false; // said by the event: no read of the session needed
  return revealIfEveryoneVoted(
    ctx,
    vote.session_id,
    () => findStory(ctx.em, vote.story_id),
    vote.stats.all_voted,
  );
}

/**
 * participant.left / participant.updated: someone who had not voted left the round or became an
 * observer, so everyone still voting may have voted now.
 */
export function revealWhenVotersChanged(ctx: StoriesContext, sessionId: string): Promise<boolean> {
  return revealIfEveryoneVoted(ctx, sessionId, async () =>
    (await storiesOf(ctx.em, sessionId)).find((s) => s.status === 'voting'),
  );
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
