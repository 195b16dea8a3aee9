import type { EntityManager } from '@pp/db';
import { forgetStoryHistory } from '../db/history.repository.ts';

/** How long the story history is kept: as long as the live room keeps its own. */
export const STORY_HISTORY_KEEP_MS = 24 * 3600_000;

/** Forgets the story events older than a day. */
export const forgetOldStoryHistory = (em: EntityManager, now: Date) =>
  forgetStoryHistory(em, new Date(now.getTime() - STORY_HISTORY_KEEP_MS));
