import type { EntityManager } from '@pp/db';
import { forgetStoryHistory, vacuumStoryHistory } from '../db/history.repository.ts';

/** How long the story history is kept: as long as the live room keeps its own. */
export const STORY_HISTORY_KEEP_MS = 24 * 3600_000;

/** Forgets the story events older than a day (and reclaims their space); how many went. */
export async function forgetOldStoryHistory(em: EntityManager, now: Date): Promise<number> {
  const forgotten = await forgetStoryHistory(em, new Date(now.getTime() - STORY_HISTORY_KEEP_MS));
  if (forgotten > 0) await vacuumStoryHistory(em);
  return forgotten;
}
