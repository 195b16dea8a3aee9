import { sealRoundOf } from '../db/story.repository.ts';
import { roundCounts, votesOfStory } from '../db/vote.repository.ts';
import { voteStats } from '../domain/vote-rules.ts';
import type { SessionsContext } from './context.ts';
import { inLockedRound } from './locked-round.ts';

/**
 * Stories reveals: the round is sealed and its votes handed over. The lock orders it after every vote
 * already in flight; votes that come later see the seal and are refused. Sealing again answers the same.
 */
export function sealRound(ctx: SessionsContext, sessionId: string, storyId: string) {
  return inLockedRound(ctx, sessionId, storyId, 'revealed', async (tx) => {
    await sealRoundOf(tx, storyId, ctx.now());
    const votes = await votesOfStory(tx, storyId);
    const counts = await roundCounts(tx, sessionId, storyId);
    return {
      votes: votes.map((v) => ({
        participant: { id: v.participant_id, name: v.name, role: v.role },
        value: v.value,
        updated_at: v.updated_at.toISOString(),
      })),
      stats: voteStats(counts.votesCast, counts.totalParticipants),
    };
  });
}
