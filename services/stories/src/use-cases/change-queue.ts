import type { EntityManager } from '@pp/db';
import { lockSession } from '../db/session.repository.ts';
import { storiesOf } from '../db/story.repository.ts';
import type { SessionView, Story } from '../db/entities/index.ts';
import { StoryNotFoundError } from '../stories.errors.ts';
import type { Actor, StoriesContext } from './context.ts';
import { loadOwnedStory } from './load-session.ts';

export interface QueueChange {
  tx: EntityManager;
  session: SessionView;
  /** Every story of the session, fresh, in queue order. */
  stories: Story[];
  /** The story acted on. */
  target: Story;
}

/**
 * One change to a session's queue of stories, by its owner (or the service itself): in one
 * transaction under the session's lock, so changes of one session happen one after the other; the
 * outbox is published after the commit.
 */
export async function changeQueue<T>(
  ctx: StoriesContext,
  actor: Actor,
  storyId: string,
  change: (c: QueueChange) => Promise<T>,
): Promise<{ result: T; session: SessionView }> {
  const { session } = await loadOwnedStory(ctx, actor, storyId);
  const result = await ctx.em.transactional(async (tx) => {
    await lockSession(tx, session.id);
    const stories = await storiesOf(tx, session.id);
    const target = stories.find((s) => s.id === storyId.toLowerCase());
    if (!target) throw new StoryNotFoundError();
    return change({ tx, session, stories, target });
  });
  ctx.publish();
  return { result, session };
}
