import { enqueue } from '@pp/events';
import { lockSession } from '../db/session.repository.ts';
import { createStory, storiesOf } from '../db/story.repository.ts';
import { statusOfNewStory } from '../domain/story-queue.ts';
import { SOURCE, type Actor, type StoriesContext } from './context.ts';
import { assertOwner, loadSession } from './load-session.ts';
import { sessionRef, storySummary } from './summaries.ts';

export interface AddStoryInput {
  title: string;
  description?: string;
  acceptance_criteria?: string;
}

/**
 * Adds a story at the end of the session's queue. The first story (or any story while none is
 * current) becomes `voting`; the others wait as `pending`. Announced by story.created.
 */
export async function addStory(ctx: StoriesContext, actor: Actor, code: string, input: AddStoryInput) {
  const session = await loadSession(ctx, code);
  assertOwner(actor, session);
  const story = await ctx.em.transactional(async (tx) => {
    await lockSession(tx, session.id);
    const existing = await storiesOf(tx, session.id);
    const created = createStory(
      tx,
      {
        sessionId: session.id,
        title: input.title,
        description: input.description ?? '',
        acceptanceCriteria: input.acceptance_criteria ?? '',
        status: statusOfNewStory(existing),
        position: existing.length + 1,
      },
      ctx.now(),
    );
    enqueue(
      tx,
      'story.created',
      { ...sessionRef(session), story: storySummary(created) },
      { source: SOURCE },
    );
    return created;
  });
  ctx.publish();
  return { story, session };
}
