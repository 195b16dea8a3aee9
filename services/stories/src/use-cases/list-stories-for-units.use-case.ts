import type { StoryForUnits } from '@pp/contracts';
import { storiesOf } from '../db/story.repository.ts';
import type { StoriesContext } from './shared/context.ts';

/**
 * A session's stories as another unit reads them (the assistant: their text to analyse, the revealed
 * votes and estimates to learn from), in queue order; only `ids` when given. Vote values of revealed
 * stories only, and never the voters' names. A session this unit has no story of has none.
 */
export async function listStoriesForUnits(
  ctx: StoriesContext,
  sessionId: string,
  ids?: readonly string[],
): Promise<StoryForUnits[]> {
  const wanted = ids?.map((id) => id.toLowerCase());
  const stories = await storiesOf(ctx.em, sessionId.toLowerCase(), wanted);
  return stories.map((s) => ({
    id: s.id,
    title: s.title,
    description: s.description,
    acceptance_criteria: s.acceptanceCriteria,
    status: s.status,
    position: s.position,
    final_estimate: s.status === 'revealed' ? (s.finalEstimate ?? null) : null,
    revealed_at: s.status === 'revealed' && s.revealedAt ? s.revealedAt.toISOString() : null,
    votes: s.status === 'revealed' ? (s.votes ?? []).map((v) => v.value) : [],
  }));
}
