import { enqueue } from '@pp/events';
import { consensus } from '../domain/consensus.ts';
import { makeCurrent, nextPending } from '../domain/story-queue.ts';
import { votesToKeep, type RoomVote } from '../domain/vote-names.ts';
import { StoryAlreadyRevealedError } from '../stories.errors.ts';
import { changeQueue } from './change-queue.ts';
import { SOURCE, type Actor, type StoriesContext } from './context.ts';
import { sessionRef, storySummary } from './summaries.ts';

/**
 * Reveals a story: the sessions service seals its round (a vote racing the reveal is either in the
 * sealed votes or refused there, never lost), the consensus is computed over the session's deck,
 * the votes are kept (named only when the session records names), the next pending story becomes
 * current, and story.revealed is published, all in one transaction under the session's lock, so of
 * two reveals at once one succeeds and the other gets 409.
 *
 * The answer names the voters: it is the room's view.
 */
export async function revealStory(ctx: StoriesContext, actor: Actor, storyId: string) {
  const { result, session } = await changeQueue(
    ctx,
    actor,
    storyId,
    async ({ tx, session, stories, target: story }) => {
      if (story.status === 'revealed') throw new StoryAlreadyRevealedError();

      const votes: RoomVote[] = await ctx.sessions.seal(session.id, story.id);
      const now = ctx.now();
      const wasCurrent = story.status === 'voting';
      story.status = 'revealed';
      story.finalEstimate = consensus(
        session.deck,
        votes.map((v) => v.value),
      );
      story.votes = votesToKeep(votes, session.recordVoteNames);
      story.revealedAt = now;
      story.updatedAt = now;

      const next = wasCurrent ? nextPending(stories, story.id) : undefined;
      if (next) makeCurrent(stories, next, now);
      enqueue(
        tx,
        'story.revealed',
        {
          ...sessionRef(session),
          story: {
            ...storySummary(story),
            final_estimate: story.finalEstimate,
            revealed_at: now.toISOString(),
            votes,
          },
          next_story_id: next?.id ?? null,
          record_vote_names: session.recordVoteNames,
        },
        { source: SOURCE },
      );
      return { story, votes, next: next ?? null };
    },
  );
  return { ...result, session };
}
