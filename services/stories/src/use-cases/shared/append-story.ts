import { statusOfNewStory } from '../../domain/story-queue.ts';
import type { StoryRecord } from '../../db/entities/index.ts';
import type { QueueChange } from './change-queue.ts';
import { sessionRef, storySummary } from './summaries.ts';

export interface NewStoryInput {
  title: string;
  description?: string;
  acceptance_criteria?: string;
}

/**
 * A new story at the end of the change's queue, announced by story.created. The first story (or any
 * story while none is current) becomes `voting`; the others wait as `pending`.
 */
export function appendStory(change: QueueChange, id: string, input: NewStoryInput): StoryRecord {
  const { queue, session, announce } = change;
  const created = queue.create({
    id,
    sessionId: session.id,
    title: input.title,
    description: input.description ?? '',
    acceptanceCriteria: input.acceptance_criteria ?? '',
    status: statusOfNewStory(queue.stories),
    position: queue.size + 1,
  });
  announce('story.created', { ...sessionRef(session), story: storySummary(created) });
  return created;
}
