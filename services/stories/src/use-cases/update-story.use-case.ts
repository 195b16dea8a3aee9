import { enqueue } from '@pp/events';
import { lockSession } from '../db/session.repository.ts';
import { storiesOf } from '../db/story.repository.ts';
import { reorder } from '../domain/story-queue.ts';
import { StoryNotFoundError } from '../stories.errors.ts';
import { SOURCE, type Actor, type StoriesContext } from './context.ts';
import { loadOwnedStory } from './load-session.ts';
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
  const { session } = await loadOwnedStory(ctx, actor, storyId);
  const story = await ctx.em.transactional(async (tx) => {
    await lockSession(tx, session.id);
    const stories = await storiesOf(tx, session.id);
    const target = stories.find((s) => s.id === storyId.toLowerCase());
    if (!target) throw new StoryNotFoundError();

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
  });
  ctx.publish();
  return { story, session };
}
