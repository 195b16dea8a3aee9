import { makeCurrent } from '../domain/story-queue.ts';
import { enqueue } from '@pp/events';
import { StoryAlreadyRevealedError } from '../stories.errors.ts';
import { changeQueue } from './change-queue.ts';
import { SOURCE, type Actor, type StoriesContext } from './context.ts';
import { sessionRef, storySummary } from './summaries.ts';

/**
 * Makes a story the current one: the previous current story goes back to `pending` with its votes
 * kept. A revealed story is not reopened here (reset it to vote again): 409.
 */
export async function activateStory(ctx: StoriesContext, actor: Actor, storyId: string) {
  const { result: story, session } = await changeQueue(
    ctx,
    actor,
    storyId,
    async ({ tx, session, stories, target }) => {
      if (target.status === 'revealed') throw new StoryAlreadyRevealedError();
      if (target.status === 'voting') return target;

      const previous = makeCurrent(stories, target, ctx.now());
      enqueue(
        tx,
        'story.activated',
        { ...sessionRef(session), story: storySummary(target), previous_story_id: previous?.id ?? null },
        { source: SOURCE },
      );
      return target;
    },
  );
  return { story, session };
}
