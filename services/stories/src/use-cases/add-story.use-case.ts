import { randomUUID } from 'node:crypto';
import { appendStory, type NewStoryInput } from './shared/append-story.ts';
import { changeQueue } from './shared/change-queue.ts';
import type { Actor, StoriesContext } from './shared/context.ts';

export type AddStoryInput = NewStoryInput;

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
    (change) => appendStory(change, id, input),
    { reads: 'current' },
  );
  return { story, session };
}
