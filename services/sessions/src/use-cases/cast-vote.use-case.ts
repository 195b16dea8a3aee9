import { outboxEvent } from '@pp/events';
import { readVoteScene, type VoteSceneRow } from '../db/vote-scene.repository.ts';
import { recordVote, roundCounts } from '../db/vote.repository.ts';
import { deckOf } from '../domain/deck.ts';
import { normalizeCode } from '../domain/session-code.ts';
import { voteRefusal, voteStats, type ParticipantRole, type VoteScene } from '../domain/vote-rules.ts';
import { SessionNotFoundError, voteRefusalError } from '../sessions.errors.ts';
import { SOURCE, type SessionsContext } from './context.ts';

export interface CastVoteInput {
  participantId: number;
  value: string;
  /** The X-Participant-Token header, when sent. */
  token: string | undefined;
}

const sceneOf = (r: VoteSceneRow, deck: string[]): VoteScene => ({
  session: {
    status: r.status,
    deck,
    votebyEnabled: r.voteby_enabled,
    voteByAt: r.vote_by_at,
    requireParticipantToken: r.require_participant_token,
  },
  participant:
    r.participant_id === null ? null : { role: r.role as ParticipantRole, tokenHash: r.token_hash! },
  round: r.story_id === null ? null : { sealed: r.sealed === true },
});

/** Reads the scene and answers why the vote is refused, or hands back what the write needs. */
async function checkedScene(ctx: SessionsContext, code: string, input: CastVoteInput, now: Date) {
  const scene = await readVoteScene(ctx.em, code, input.participantId);
  if (!scene) throw new SessionNotFoundError();
  const deck = deckOf(scene.voting_system, scene.custom_deck_values);
  const refusal = voteRefusal(sceneOf(scene, deck), { value: input.value, token: input.token }, now);
  if (refusal) throw voteRefusalError(refusal, deck);
  return scene;
}

/** The vote and vote.cast in one statement; undefined when the round closed since the scene was read. */
function write(ctx: SessionsContext, scene: VoteSceneRow, input: CastVoteInput, now: Date) {
  // The counts are not known before the statement: the contract is checked with placeholders, and
  // the statement puts the counts it takes into data.stats.
  const event = outboxEvent(
    'vote.cast',
    {
      session_id: scene.session_id,
      session_code: scene.code,
      story_id: scene.story_id!,
      participant: { id: input.participantId, name: scene.participant_name! },
      stats: voteStats(0, 0),
    },
    { source: SOURCE },
  );
  return recordVote(ctx.em, {
    sessionId: scene.session_id,
    storyId: scene.story_id!,
    participantId: input.participantId,
    value: input.value,
    at: now,
    event: { id: event.id, payload: JSON.stringify(event), createdAt: new Date(event.occurred_at) },
  });
}

/**
 * A participant votes on the session's current story; a second vote replaces the first. Two round
 * trips: the scene read (checked by the domain rules), then one statement that writes the vote and
 * vote.cast (without the value) together. The relay publishes after it, off the request path.
 */
export async function castVote(ctx: SessionsContext, rawCode: string, input: CastVoteInput) {
  const code = normalizeCode(rawCode);
  if (!code) throw new SessionNotFoundError();
  const now = ctx.now();
  let scene = await checkedScene(ctx, code, input, now);
  let saved = await write(ctx, scene, input, now);
  if (!saved) {
    // The round was sealed, reset or replaced in between: the scene read again says why (409), or
    // names the round now open, which is tried once more.
    scene = await checkedScene(ctx, code, input, now);
    saved = await write(ctx, scene, input, now);
    if (!saved) throw voteRefusalError('story_already_revealed', []);
  }
  ctx.publish();
  // Votes of one story commit side by side, so the count taken in the statement may miss one that
  // committed at the same moment; counted again after the commit, the last voter always sees everyone.
  const counts =
    saved.votesCast >= saved.totalParticipants
      ? saved
      : await roundCounts(ctx.em, scene.session_id, scene.story_id!);
  return { vote: saved.vote, stats: voteStats(counts.votesCast, counts.totalParticipants) };
}
