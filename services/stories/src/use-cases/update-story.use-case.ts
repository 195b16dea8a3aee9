import { enqueue } from '@pp/events';
import { reorder } from '../domain/story-queue.ts';
import { changeQueue } from './change-queue.ts';
import { SOURCE, type Actor, type StoriesContext } from './context.ts';
import { sessionRef, storySummary } from './summaries.ts';

export interface UpdateStoryInput {
  title?: string;
  description?: string;
  acceptance_criteria?: string;
  /** Moves the story in the queue (1 = first); the others close up around it. */
  position?: number;
}

/** Edits a story's text or moves it in the queue; its status is changed only by reveal, reset and activate. */
export async function updateStory(
  ctx: StoriesContext,
  actor: Actor,
  storyId: string,
  input: UpdateStoryInput,
) {
  const { result: story, session } = await changeQueue(
    ctx,
    actor,
    storyId,
    async ({ tx, session, stories, target }) => {
      const changed: string[] = [];
      const now = ctx.now();
      const set = <K extends 'title' | 'description' | 'acceptanceCriteria'>(
        key: K,
        name: string,
        value?: string,
      ) => {
        if (value === undefined || target[key] === value) return;
        target[key] = value;
        changed.push(name);
      };
      set('title', 'title', input.title);
      set('description', 'description', input.description);
      set('acceptanceCriteria', 'acceptance_criteria', input.acceptance_criteria);
      if (input.position !== undefined) {
        const positions = reorder(stories, target.id, input.position);
        for (const s of stories) {
          const position = positions.get(s.id)!;
          if (s.position === position) continue;
          s.position = position;
          s.updatedAt = now;
          if (s.id === target.id) changed.push('position');
        }
      }
      if (changed.length === 0) return target;
      target.updatedAt = now;
      enqueue(
        tx,
        'story.updated',
        { ...sessionRef(session), story: storySummary(target), changed },
        { source: SOURCE },
      );
      return target;
    },
  );
  return { story, session };
}
