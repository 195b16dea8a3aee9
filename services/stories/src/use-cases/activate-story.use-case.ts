import { makeCurrent } from '../domain/story-queue.ts';
import { StoryAlreadyRevealedError } from '../errors.ts';
import { changeQueue } from './shared/change-queue.ts';
import type { Actor, StoriesContext } from './shared/context.ts';
import { sessionRef, storySummary } from './shared/summaries.ts';
import { revealIfKeptVotesComplete } from './reveal-story.use-case.ts';

/**
 * Makes a story the current one: the previous current story goes back to `pending` with its votes
 * kept. A revealed story is not reopened here (reset it to vote again): 409. In an auto-reveal session,
 * a story whose kept votes complete its round is revealed before the answer.
 */
export async function activateStory(ctx: StoriesContext, actor: Actor, storyId: string) {
  const { result: story, session } = await changeQueue(
    ctx,
    actor,
    { storyId },
    ({ queue, session, target, now, announce }) => {
      if (target!.status === 'revealed') throw new StoryAlreadyRevealedError();
      if (target!.status === 'voting') return target!;
      const previous = makeCurrent(queue.stories, target!, now);
      announce('story.activated', {
        ...sessionRef(session),
        story: storySummary(target!),
        previous_story_id: previous?.id ?? null,
      });
      return target!;
    },
    { reads: 'current' },
  );
  return { story: await revealIfKeptVotesComplete(ctx, session, story), session };
}
