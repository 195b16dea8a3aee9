import { enqueue } from '@pp/events';
import { makeCurrent, nextPending, positionsWithout } from '../domain/story-queue.ts';
import { changeQueue } from './change-queue.ts';
import { SOURCE, type Actor, type StoriesContext } from './context.ts';
import { sessionRef, storySummary } from './summaries.ts';

/**
 * Deletes a story; the ones behind it move up. When it was the current story, the next pending one
 * becomes current (story.deleted names it, and story.activated announces it like any other change
 * of the current story).
 */
export async function deleteStory(ctx: StoriesContext, actor: Actor, storyId: string) {
  const { result, session } = await changeQueue(
    ctx,
    actor,
    storyId,
    async ({ tx, session, stories, target }) => {
      const now = ctx.now();
      const next = target.status === 'voting' ? nextPending(stories, target.id) : undefined;
      const positions = positionsWithout(stories, target.id);
      for (const s of stories) {
        if (s === target) continue;
        const position = positions.get(s.id)!;
        if (s.position !== position) {
          s.position = position;
          s.updatedAt = now;
        }
      }
      if (next)
        makeCurrent(
          stories.filter((s) => s !== target),
          next,
          now,
        );
      const deleted = storySummary(target);
      tx.remove(target);
      enqueue(
        tx,
        'story.deleted',
        { ...sessionRef(session), story: deleted, next_story_id: next?.id ?? null },
        { source: SOURCE },
      );
      if (next) {
        enqueue(
          tx,
          'story.activated',
          { ...sessionRef(session), story: storySummary(next), previous_story_id: null },
          { source: SOURCE },
        );
      }
      return { deleted, next: next ?? null };
    },
  );
  return { ...result, session };
}
