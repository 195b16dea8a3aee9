import { appendStory } from './shared/append-story.ts';
import { changeQueue } from './shared/change-queue.ts';
import type { StoriesContext } from './shared/context.ts';
import { storySummary } from './shared/summaries.ts';

export interface BatchStory {
  id: string;
  title: string;
  description?: string;
  acceptance_criteria?: string;
}

/**
 * Adds stories at the end of a session's queue, in the given order, as one change of the queue (one
 * round command): all of them or none. For another unit, which has checked the caller owns the session.
 * A story whose id the session already has is left as it is, so a retried batch adds nothing twice;
 * the answer is every story of the batch as the queue now has it.
 */
export async function addStories(ctx: StoriesContext, sessionId: string, batch: BatchStory[]) {
  const { result } = await changeQueue(ctx, { kind: 'system', reason: 'batch' }, { sessionId }, (change) => {
    const known = new Map(change.queue.stories.map((s) => [s.id, s]));
    return batch.map((input) => {
      const existing = known.get(input.id.toLowerCase());
      if (existing) return existing;
      const created = appendStory(change, input.id.toLowerCase(), input);
      known.set(created.id, created);
      return created;
    });
  });
  return result.map(storySummary);
}
