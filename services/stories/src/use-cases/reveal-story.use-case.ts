import type { SealCondition } from '@pp/contracts';
import { consensus } from '../domain/consensus.ts';
import { makeCurrent, nextPending } from '../domain/story-queue.ts';
import { votesToKeep, type RoomVote } from '../domain/vote-names.ts';
import { StoryAlreadyRevealedError } from '../errors.ts';
import { changeQueue } from './shared/change-queue.ts';
import type { Actor, StoriesContext } from './shared/context.ts';
import { sessionRef, storySummary } from './shared/summaries.ts';

const conditionOf = (actor: Actor): SealCondition =>
  actor.kind === 'user' ? 'always' : actor.reason === 'auto_reveal' ? 'all_voted' : 'deadline_passed';

/**
 * Reveals a story: the sessions unit seals its round (a vote racing the reveal is either among the
 * sealed votes or refused there, never lost) and hands the votes over with the session's current
 * deck and settings; the consensus is computed over that deck, the votes are kept (named only when
 * the session records names), the next pending story becomes current, and story.revealed is
 * published. An automatic reveal happens only if the sessions unit finds its reason still holds.
 *
 * The answer names the voters: it is the room's view.
 */
export async function revealStory(ctx: StoriesContext, actor: Actor, storyId: string) {
  const { result, session } = await changeQueue(
    ctx,
    actor,
    { storyId },
    ({ queue, session, target, now, effects, answer, announce }) => {
      const story = target!;
      if (story.status === 'revealed') throw new StoryAlreadyRevealedError();
      effects.seal = { story_id: story.id, when: conditionOf(actor) };
      const votes: RoomVote[] = answer?.votes ?? [];
      const settings = answer?.session;
      const wasCurrent = story.status === 'voting';
      story.status = 'revealed';
      story.finalEstimate = settings
        ? consensus(
            settings.deck,
            votes.map((v) => v.value),
          )
        : null;
      story.votes = votesToKeep(votes, settings?.record_vote_names ?? false);
      story.revealedAt = now;
      story.updatedAt = now;

      const next = wasCurrent ? nextPending(queue.stories, story.id) : undefined;
      if (next) makeCurrent(queue.stories, next, now);
      announce('story.revealed', {
        ...sessionRef(session),
        story: {
          ...storySummary(story),
          final_estimate: story.finalEstimate,
          revealed_at: now.toISOString(),
          votes,
        },
        next_story_id: next?.id ?? null,
        record_vote_names: settings?.record_vote_names ?? false,
      });
      return { story, votes, next: next ?? null };
    },
  );
  return { ...result, session };
}
