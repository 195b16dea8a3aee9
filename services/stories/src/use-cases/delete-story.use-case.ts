import { makeCurrent, nextPending, positionsWithout } from '../domain/story-queue.ts';
import { changeQueue } from './shared/change-queue.ts';
import type { Actor, StoriesContext } from './shared/context.ts';
import { sessionRef, storySummary } from './shared/summaries.ts';
import { revealIfKeptVotesComplete } from './reveal-story.use-case.ts';

/**
 * Deletes a story (its round and votes go too); the ones behind it move up. When it was the current
 * story, the next pending one becomes current (story.deleted names it, and story.activated announces
 * it like any other change of the current story), and is revealed before the answer in an auto-reveal
 * session when its kept votes complete its round.
 */
export async function deleteStory(ctx: StoriesContext, actor: Actor, storyId: string) {
  const { result, session } = await changeQueue(
    ctx,
    actor,
    { storyId },
    ({ queue, session, target, now, effects, announce }) => {
      const story = target!;
      effects.forget.push(story.id);
      const next = story.status === 'voting' ? nextPending(queue.stories, story.id) : undefined;
      const positions = positionsWithout(queue.stories, story.id);
      const deleted = storySummary(story);
      queue.remove(story);
      for (const s of queue.stories) {
        const position = positions.get(s.id)!;
        if (s.position === position) continue;
        s.position = position;
        s.updatedAt = now;
      }
      if (next) makeCurrent(queue.stories, next, now);
      announce('story.deleted', { ...sessionRef(session), story: deleted, next_story_id: next?.id ?? null });
      if (next) {
        announce('story.activated', {
          ...sessionRef(session),
          story: storySummary(next),
          previous_story_id: null,
        });
      }
      return { deleted, next: next ?? null };
    },
  );
  const next = result.next && (await revealIfKeptVotesComplete(ctx, session, result.next));
  return { ...result, next, session };
}
