import { randomUUID } from 'node:crypto';
import { makeCurrent } from '../domain/story-queue.ts';
import { appendStory } from './shared/append-story.ts';
import { changeQueue } from './shared/change-queue.ts';
import type { Actor, StoriesContext } from './shared/context.ts';
import { sessionRef, storySummary } from './shared/summaries.ts';

/** "Quick vote 14:05": the time the round was started (UTC, the server's clock), so several are told apart. */
export const quickVoteTitle = (now: Date) => `Quick vote ${now.toISOString().slice(11, 16)}`;

/**
 * A round without a prepared story, in one request: a story is added at the end of the queue and made
 * the current one at once (the story that was current goes back to `pending`, its votes kept).
 * Announced by story.created and, when another story was current, story.activated. The owner can
 * rename it later like any story.
 */
export async function startQuickVote(ctx: StoriesContext, actor: Actor, code: string, title?: string) {
  const id = randomUUID();
  const { result: story, session } = await changeQueue(
    ctx,
    actor,
    { code },
    (change) => {
      const created = appendStory(change, id, { title: title ?? quickVoteTitle(change.now) });
      if (created.status === 'voting') return created;
      const previous = makeCurrent(change.queue.stories, created, change.now);
      change.announce('story.activated', {
        ...sessionRef(change.session),
        story: storySummary(created),
        previous_story_id: previous?.id ?? null,
      });
      return created;
    },
    { reads: 'current' },
  );
  return { story, session };
}
