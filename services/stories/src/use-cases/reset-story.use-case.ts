import { makeCurrent } from '../domain/story-queue.ts';
import { enqueue } from '@pp/events';
import { changeQueue } from './change-queue.ts';
import { SOURCE, type Actor, type StoriesContext } from './context.ts';
import { sessionRef, storySummary } from './summaries.ts';

/**
 * Clears a story's votes (through the sessions service, which also unseals the round) and opens it
 * for voting again as the current story; after a reveal this is a re-vote and the final estimate goes.
 * Another current story goes back to `pending` (story.activated says so).
 */
export async function resetStory(ctx: StoriesContext, actor: Actor, storyId: string) {
  const { result: story, session } = await changeQueue(
    ctx,
    actor,
    storyId,
    async ({ tx, session, stories, target }) => {
      await ctx.sessions.reset(session.id, target.id);
      const previous = makeCurrent(stories, target, ctx.now());
      target.finalEstimate = null;
      target.votes = null;
      target.revealedAt = null;
      enqueue(tx, 'story.reset', { ...sessionRef(session), story: storySummary(target) }, { source: SOURCE });
      if (previous) {
        enqueue(
          tx,
          'story.activated',
          { ...sessionRef(session), story: storySummary(target), previous_story_id: previous.id },
          { source: SOURCE },
        );
      }
      return target;
    },
  );
  return { story, session };
}
