import { openRoundOf } from '../db/story.repository.ts';
import { deleteVotesOfStory } from '../db/vote.repository.ts';
import type { SessionsContext } from './context.ts';
import { inLockedRound } from './locked-round.ts';

/** Stories resets a story (or re-opens a revealed one): its votes go and the round is open again. */
export function resetRound(ctx: SessionsContext, sessionId: string, storyId: string) {
  return inLockedRound(ctx, sessionId, storyId, 'pending', async (tx) => {
    const votesDeleted = await deleteVotesOfStory(tx, storyId);
    await openRoundOf(tx, storyId);
    return { story_id: storyId, votes_deleted: votesDeleted };
  });
}
