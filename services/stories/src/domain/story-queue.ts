import type { StoryStatus } from '@pp/contracts';

/**
 * The queue of a session's stories: `pending` (queued), `voting` (the current one, at most one),
 * `revealed`. Positions run 1..n without gaps.
 */
export type { StoryStatus };

export interface QueuedStory {
  id: string;
  status: StoryStatus;
  position: number;
}

/** The story that becomes current when the current one is revealed or deleted: the first pending by position. */
export function nextPending<S extends QueuedStory>(stories: readonly S[], except?: string): S | undefined {
  return stories
    .filter((s) => s.status === 'pending' && s.id !== except)
    .sort((a, b) => a.position - b.position)[0];
}

export interface SchedulableStory extends QueuedStory {
  votingStartedAt?: Date | null;
  updatedAt: Date;
}

/** Makes the story the current one; the one that was current goes back to pending and is returned. */
export function makeCurrent<S extends SchedulableStory>(
  stories: readonly S[],
  target: S,
  now: Date,
): S | undefined {
  const previous = stories.find((s) => s.status === 'voting' && s.id !== target.id);
  if (previous) {
    previous.status = 'pending';
    previous.updatedAt = now;
  }
  target.status = 'voting';
  target.votingStartedAt = now;
  target.updatedAt = now;
  return previous;
}

/** A new story is the current one when the session has none, else it waits. */
export function statusOfNewStory(stories: readonly QueuedStory[]): StoryStatus {
  return stories.some((s) => s.status === 'voting') ? 'pending' : 'voting';
}

/**
 * Moves one story to a position (clamped to 1..n) and gives every story its new position.
 * Returns the new position of each story, by id.
 */
export function reorder(stories: readonly QueuedStory[], id: string, position: number): Map<string, number> {
  const ordered = [...stories].sort((a, b) => a.position - b.position).map((s) => s.id);
  const from = ordered.indexOf(id);
  if (from < 0) throw new Error(`story ${id} is not in the queue`);
  ordered.splice(from, 1);
  const to = Math.min(Math.max(position, 1), ordered.length + 1) - 1;
  ordered.splice(to, 0, id);
  return new Map(ordered.map((storyId, index) => [storyId, index + 1]));
}

/** Positions after one story leaves the queue: the ones behind it move up. */
export function positionsWithout(stories: readonly QueuedStory[], id: string): Map<string, number> {
  const rest = [...stories].filter((s) => s.id !== id).sort((a, b) => a.position - b.position);
  return new Map(rest.map((s, index) => [s.id, index + 1]));
}
