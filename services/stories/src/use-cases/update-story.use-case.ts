import { reorder } from '../domain/story-queue.ts';
import { changeQueue } from './shared/change-queue.ts';
import type { Actor, StoriesContext } from './shared/context.ts';
import { sessionRef, storySummary } from './shared/summaries.ts';

export interface UpdateStoryInput {
  title?: string;
  description?: string;
  acceptance_criteria?: string;
  /** Moves the story in the queue (1 = first); the others close up around it. */
  position?: number;
}

const TEXT_FIELDS = [
  ['title', 'title'],
  ['description', 'description'],
  ['acceptanceCriteria', 'acceptance_criteria'],
] as const;

/**
 * Edits a story's text or moves it in the queue; its status is changed only by reveal, reset and
 * activate. A new title or position of the current story is in the session lookup once this answers.
 */
export async function updateStory(
  ctx: StoriesContext,
  actor: Actor,
  storyId: string,
  input: UpdateStoryInput,
) {
  const { result: story, session } = await changeQueue(
    ctx,
    actor,
    { storyId },
    ({ queue, session, target, now, announce }) => {
      const story = target!;
      const changed: string[] = [];
      for (const [key, name] of TEXT_FIELDS) {
        const value = input[name];
        if (value === undefined || story[key] === value) continue;
        story[key] = value;
        changed.push(name);
      }
      if (input.position !== undefined) {
        const positions = reorder(queue.stories, story.id, input.position);
        for (const s of queue.stories) {
          const position = positions.get(s.id)!;
          if (s.position === position) continue;
          s.position = position;
          s.updatedAt = now;
          if (s === story) changed.push('position');
        }
      }
      if (changed.length === 0) return story;
      story.updatedAt = now;
      announce('story.updated', { ...sessionRef(session), story: storySummary(story), changed });
      return story;
    },
  );
  return { story, session };
}
