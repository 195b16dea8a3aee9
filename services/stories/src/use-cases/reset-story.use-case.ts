import { makeCurrent } from '../domain/story-queue.ts';
import { changeQueue } from './shared/change-queue.ts';
import type { Actor, StoriesContext } from './shared/context.ts';
import { sessionRef, storySummary } from './shared/summaries.ts';

/**
 * Clears a story's votes and opens it for voting again as the current story (the sessions unit
 * deletes the votes and reopens the round); after a reveal this is a re-vote and the final estimate
 * goes. Another current story goes back to `pending` (story.activated says so).
 */
export async function resetStory(ctx: StoriesContext, actor: Actor, storyId: string) {
  const { result: story, session } = await changeQueue(
    ctx,
    actor,
    { storyId },
    ({ queue, session, target, now, effects, announce }) => {
      const story = target!;
      effects.reset.push(story.id);
      const previous = makeCurrent(queue.stories, story, now);
      story.finalEstimate = null;
      story.votes = null;
      story.revealedAt = null;
      announce('story.reset', { ...sessionRef(session), story: storySummary(story) });
      if (previous) {
        announce('story.activated', {
          ...sessionRef(session),
          story: storySummary(story),
          previous_story_id: previous.id,
        });
      }
      return story;
    },
    { reads: 'current' },
  );
  return { story, session };
}
