import type { EntityManager } from '@pp/db';
import { EVENT_RETENTION_SECONDS } from '@pp/events';
import { forgetRemovalsBefore } from '../db/past-story.repository.ts';

/**
 * A removal (a reset or deletion of a story) only has to outlive the reveals from before it whose
 * events may still come: once the event stream no longer keeps them (and a day more), it goes.
 */
export async function forgetOldRemovals(em: EntityManager, now = new Date()): Promise<void> {
  await forgetRemovalsBefore(em, new Date(now.getTime() - (EVENT_RETENTION_SECONDS + 24 * 3600) * 1000));
}
