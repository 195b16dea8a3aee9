import { enqueue } from '@pp/events';
import { lockSession } from '../db/session.repository.ts';
import { storiesOf } from '../db/story.repository.ts';
import { StoryAlreadyRevealedError, StoryNotFoundError } from '../stories.errors.ts';
import { SOURCE, type Actor, type StoriesContext } from './context.ts';
import { loadOwnedStory } from './load-session.ts';
import { sessionRef, storySummary } from './summaries.ts';

/**
 * Makes a story the current one: the previous current story goes back to `pending` with its votes
 * kept. A revealed story is not reopened here (reset it to vote again): 409.
 */
export async function activateStory(ctx: StoriesContext, actor: Actor, storyId: string) {
  const { session } = await loadOwnedStory(ctx, actor, storyId);
  const story = await ctx.em.transactional(async (tx) => {
    await lockSession(tx, session.id);
    const stories = await storiesOf(tx, session.id);
    const target = stories.find((s) => s.id === storyId.toLowerCase());
    if (!target) throw new StoryNotFoundError();
    if (target.status === 'revealed') throw new StoryAlreadyRevealedError();
    if (target.status === 'voting') return target;

    const now = ctx.now();
    const previous = stories.find((s) => s.status === 'voting');
    if (previous) {
      previous.status = 'pending';
      previous.updatedAt = now;
    }
    target.status = 'voting';
    target.votingStartedAt = now;
    target.updatedAt = now;
    enqueue(
      tx,
      'story.activated',
      { ...sessionRef(session), story: storySummary(target), previous_story_id: previous?.id ?? null },
      { source: SOURCE },
    );
    return target;
  });
  ctx.publish();
  return { story, session };
}
