import type { StoryForUnits, StoryStatus } from '@pp/contracts';
import { storiesForUnitsOf } from '../db/story.repository.ts';
import type { StoriesContext } from './shared/context.ts';

/**
 * A session's stories as another unit reads them (the assistant: their text to analyse, the revealed
 * votes and estimates to learn from), in queue order; only those of `ids` and of `statuses` when
 * given (the assistant asks for the one story it works on, not the whole backlog). Vote values of
 * revealed stories only, and never the voters' names. A session this unit has no story of has none.
 */
export async function listStoriesForUnits(
  ctx: StoriesContext,
  sessionId: string,
  filter: { ids?: readonly string[]; statuses?: readonly StoryStatus[] } = {},
): Promise<StoryForUnits[]> {
  return storiesForUnitsOf(ctx.em, sessionId.toLowerCase(), {
    ids: filter.ids?.map((id) => id.toLowerCase()),
    statuses: filter.statuses,
  });
}
