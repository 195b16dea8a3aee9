import { randomUUID } from 'node:crypto';
import { statusOfNewStory } from '../domain/story-queue.ts';
import { changeQueue } from './shared/change-queue.ts';
import type { Actor, StoriesContext } from './shared/context.ts';
import { sessionRef, storySummary } from './shared/summaries.ts';

export interface AddStoryInput {
  title: string;
  description?: string;
  acceptance_criteria?: string;
}

/**
 * Adds a story at the end of the session's queue. The first story (or any story while none is
 * current) becomes `voting`: open for votes as soon as this answers. The others wait as `pending`.
 * Announced by story.created.
 */
export async function addStory(ctx: StoriesContext, actor: Actor, code: string, input: AddStoryInput) {
  const id = randomUUID();
  const { result: story, session } = await changeQueue(
    ctx,
    actor,
    { code },
    ({ queue, session, announce }) => {
      const created = queue.create({
        id,
        sessionId: session.id,
        title: input.title,
        description: input.description ?? '',
        acceptanceCriteria: input.acceptance_criteria ?? '',
        status: statusOfNewStory(queue.stories),
        position: queue.stories.length + 1,
      });
      announce('story.created', { ...sessionRef(session), story: storySummary(created) });
      return created;
    },
  );
  return { story, session };
}
