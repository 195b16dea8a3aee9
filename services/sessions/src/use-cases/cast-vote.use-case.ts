import { enqueue } from '@pp/events';
import {
  lockVoteScene,
  readVoteScene,
  roundCounts,
  upsertVote,
  type VoteSceneRow,
} from '../db/vote.repository.ts';
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

/**
 * A participant votes on the session's current story; a second vote replaces the first. One
 * transaction: read the scene with the round share-locked, upsert and count, write vote.cast (without the
 * value) to the outbox. The relay publishes after the commit, off the request path.
 */
export async function castVote(ctx: SessionsContext, rawCode: string, input: CastVoteInput) {
  const code = normalizeCode(rawCode);
  if (!code) throw new SessionNotFoundError();
  const now = ctx.now();
  const result = await ctx.em.transactional(async (tx) => {
    const scene =
      (await lockVoteScene(tx, code, input.participantId)) ??
      (await readVoteScene(tx, code, input.participantId));
    if (!scene) throw new SessionNotFoundError();
    const deck = deckOf(scene.voting_system, scene.custom_deck_values);
    const refusal = voteRefusal(sceneOf(scene, deck), { value: input.value, token: input.token }, now);
    if (refusal) throw voteRefusalError(refusal, deck);

    const saved = await upsertVote(tx, {
      sessionId: scene.session_id,
      storyId: scene.story_id!,
      participantId: input.participantId,
      value: input.value,
      at: now,
    });
    const stats = voteStats(saved.votesCast, saved.totalParticipants);
    enqueue(
      tx,
      'vote.cast',
      {
        session_id: scene.session_id,
        session_code: scene.code,
        story_id: scene.story_id!,
        participant: { id: input.participantId, name: scene.participant_name! },
        stats,
      },
      { source: SOURCE },
    );
    return { vote: saved.vote, stats, sessionId: scene.session_id };
  });
  ctx.publish();
  // Votes of one story commit side by side, so the count seen inside the transaction may miss one that
  // committed at the same moment; counted again after the commit, the last voter always sees everyone.
  const stats = result.stats.all_voted
    ? result.stats
    : await roundCounts(ctx.em, result.sessionId, result.vote.story_id).then((c) =>
        voteStats(c.votesCast, c.totalParticipants),
      );
  return { vote: result.vote, stats };
}
