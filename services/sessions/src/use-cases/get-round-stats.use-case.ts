import { roundCounts } from '../db/vote.repository.ts';
import { voteStats } from '../domain/vote-rules.ts';
import type { SessionsContext } from './shared/context.ts';

/** The counts of a story's round as committed now (stories asks before an automatic reveal). */
export async function getRoundStats(ctx: SessionsContext, sessionId: string, storyId: string) {
  const counts = await roundCounts(ctx.em, sessionId, storyId);
  return { stats: voteStats(counts.votesCast, counts.totalParticipants) };
}
