import { enqueue } from '@pp/events';
import { lockSession } from '../db/session.repository.ts';
import { storiesOf } from '../db/story.repository.ts';
import { StoryNotFoundError } from '../stories.errors.ts';
import { SOURCE, type Actor, type StoriesContext } from './context.ts';
import { loadOwnedStory } from './load-session.ts';
import { sessionRef, storySummary } from './summaries.ts';

/**
 * Clears a story's votes (through the sessions service, which also unseals the round) and opens it
 * for voting again as the current story; after a reveal this is a re-vote and the final estimate goes.
 * Another current story goes back to `pending` (story.activated says so).
 */
export async function resetStory(ctx: StoriesContext, actor: Actor, storyId: string) {
  const { session } = await loadOwnedStory(ctx, actor, storyId);
  const story = await ctx.em.transactional(async (tx) => {
    await lockSession(tx, session.id);
    const stories = await storiesOf(tx, session.id);
    const target = stories.find((s) => s.id === storyId.toLowerCase());
    if (!target) throw new StoryNotFoundError();

    await ctx.sessions.reset(session.id, target.id);
    const now = ctx.now();
    const previous = stories.find((s) => s.status === 'voting' && s.id !== target.id);
    if (previous) {
      previous.status = 'pending';
      previous.updatedAt = now;
    }
    target.status = 'voting';
    target.finalEstimate = null;
    target.votes = null;
    target.revealedAt = null;
    target.votingStartedAt = now;
    target.updatedAt = now;
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
  });
  ctx.publish();
  return { story, session };
}
