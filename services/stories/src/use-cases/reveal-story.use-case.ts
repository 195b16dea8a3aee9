import type { SealCondition } from '@pp/contracts';
import { consensus } from '../domain/consensus.ts';
import { makeCurrent, nextPending } from '../domain/story-queue.ts';
import { votesToKeep, type RoomVote } from '../domain/vote-names.ts';
import type { SessionRecord, StoryRecord } from '../db/entities/index.ts';
import { notDue, StoryAlreadyRevealedError } from '../errors.ts';
import { changeQueue } from './shared/change-queue.ts';
import type { Actor, StoriesContext } from './shared/context.ts';
import { sessionRef, storySummary } from './shared/summaries.ts';

/** What the sessions unit checks before it seals: nothing for the owner or the moderator, the automatic reveal's reason else. */
function conditionOf(actor: Actor): SealCondition {
  if (actor.kind !== 'system') return 'always';
  if (actor.reason === 'auto_reveal') return 'all_voted';
  return actor.reason === 'countdown' ? 'countdown_ended' : 'deadline_passed';
}

/**
 * Reveals a story: the sessions unit seals its round (a vote racing the reveal is either among the
 * sealed votes or refused there, never lost) and hands the votes over with the session's current
 * deck and settings; the consensus is computed over that deck, the votes are kept (named only when
 * the session records names), the next pending story becomes current, and story.revealed is
 * published. An automatic reveal happens only if the sessions unit finds its reason still holds.
 *
 * The answer names the voters: it is the room's view. The next story may be revealed in turn before
 * the answer (see revealIfKeptVotesComplete); `next` is as it is then. A reveal made on an event
 * `yields` to a change of the session under way (see ChangeOptions).
 */
export async function revealStory(
  ctx: StoriesContext,
  actor: Actor,
  storyId: string,
  { yields = false }: { yields?: boolean } = {},
) {
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
          description: story.description,
          acceptance_criteria: story.acceptanceCriteria,
        },
        next_story_id: next?.id ?? null,
        record_vote_names: settings?.record_vote_names ?? false,
      });
      return { story, votes, next: next ?? null };
    },
    { reads: 'current', yields },
  );
  const next = result.next && (await revealIfKeptVotesComplete(ctx, session, result.next));
  return { ...result, next, session };
}

/**
 * A change made this story current (activated, or the next one after a reveal or a deletion). A story
 * keeps its votes while it waits as `pending`, and its round may be complete already (the voter it
 * waited for left meanwhile, or auto-reveal was switched on): in an auto-reveal session nothing else
 * would reveal it before someone votes again, so it is revealed now, before the change answers, which
 * shows it as it is then. The change is made already: if the reveal fails, the answer goes as it is.
 */
export async function revealIfKeptVotesComplete<S extends { id: string }>(
  ctx: StoriesContext,
  session: Pick<SessionRecord, 'id' | 'autoReveal'>,
  story: S,
): Promise<S | StoryRecord> {
  if (!session.autoReveal) return story;
  try {
    if (!(await ctx.sessions.stats(session.id, story.id)).all_voted) return story;
    return (await revealStory(ctx, { kind: 'system', reason: 'auto_reveal' }, story.id)).story;
  } catch (err) {
    if (!notDue(err)) ctx.logger.warn({ err, story_id: story.id }, 'kept votes not revealed');
    return story;
  }
}
