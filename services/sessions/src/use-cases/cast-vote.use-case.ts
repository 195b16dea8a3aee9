import { setTimeout as sleep } from 'node:timers/promises';
import { sessionCodeOf } from '@pp/contracts';
import { outboxEvent } from '@pp/events';
import { confirmRound as confirmStoredRound } from '../db/round.repository.ts';
import { readVoteScene, type VoteSceneRow } from '../db/vote-scene.repository.ts';
import { recordVote, roundCounts } from '../db/vote.repository.ts';
import { deckOf } from '../domain/deck.ts';
import { toRoomMessage } from '../domain/room-events.ts';
import { voteRefusal, voteStats, type ParticipantRole, type VoteScene } from '../domain/vote-rules.ts';
import { RoundNotConfirmedError, SessionNotFoundError, voteRefusalError } from '../errors.ts';
import { revealIfComplete } from './shared/auto-reveal.ts';
import { SOURCE, type SessionsContext } from './shared/context.ts';

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
    r.participant_id === null
      ? null
      : {
          role: r.role as ParticipantRole,
          tokenHash: r.token_hash!,
          votedWithToken: r.voted_with_token === true,
        },
  round:
    r.story_id === null
      ? null
      : {
          sealed: r.sealed === true,
          countdown_ends_at: r.countdown_ends_at,
          countdown_at_zero: r.countdown_at_zero,
        },
});

/** Why the vote cannot be taken in this scene (an error to throw), or null. */
function refusalIn(scene: VoteSceneRow, input: CastVoteInput, now: Date) {
  const deck = deckOf(scene.voting_system, scene.custom_deck_values);
  const refusal = voteRefusal(sceneOf(scene, deck), { value: input.value, token: input.token }, now);
  return refusal && voteRefusalError(refusal, deck);
}

/**
 * A round opened by a change of the stories takes votes once the stories unit shows its story as the
 * current one: the change was committed there. Until then (the change is under way, or it failed
 * after the round was opened here, which the round sync then undoes) a vote would be cast on a story
 * that may never exist. Whether the stories unit shows it (then the round is marked confirmed, unless
 * a later change opened it again meanwhile: the write then finds it unconfirmed).
 */
async function confirmRound(ctx: SessionsContext, scene: VoteSceneRow & { story_id: string }) {
  if ((await ctx.stories.currentStory(scene.session_id)) !== scene.story_id) return false;
  await confirmStoredRound(ctx.em, scene.session_id, scene.story_id, scene.unconfirmed_version!);
  return true;
}

/**
 * How long a vote on a round not confirmed yet waits for the change that opened it to be seen
 * committed on the live feed (its events go out right after the commit, as its answer does) before it
 * asks the stories unit.
 */
const FEED_WAIT_MS = 200;

/** Whether this replica has seen the change that opened the scene's round committed (waiting a moment if `wait`). */
const seenCommitted = (ctx: SessionsContext, scene: VoteSceneRow, wait: boolean) =>
  ctx.committedRounds.seen(scene.session_id, scene.unconfirmed_version!, wait ? FEED_WAIT_MS : 0);

/** How often a vote asks the stories unit about its round, and how long it waits before asking again. */
const CONFIRM_ASKS = 2;
const CONFIRM_PAUSE_MS = 100;

/**
 * Reads the scene afresh (and keeps it for the voter's next vote); throws when it refuses the vote. A
 * round not confirmed yet is confirmed first: by the live feed, which shows the stories unit's
 * committed changes (their events, with their round version), else by asking the stories unit whether
 * it shows the round's story as current. When the stories unit does not show it, the scene is read
 * again, which tells what happened to the round meanwhile (sealed, replaced); a round still
 * unconfirmed is asked about once more a moment later (a change under way commits within
 * milliseconds), and then the vote is refused with 503 and a retry a moment later.
 */
async function freshScene(ctx: SessionsContext, code: string, input: CastVoteInput, now: Date) {
  for (let asked = 0; ;) {
    const scene = await readVoteScene(ctx.em, code, input.participantId);
    if (!scene) throw new SessionNotFoundError();
    const refused = refusalIn(scene, input, now);
    if (refused) throw refused;
    const open = scene.story_id === null ? undefined : { ...scene, story_id: scene.story_id };
    if (open && open.unconfirmed_version !== null && !(await seenCommitted(ctx, open, asked === 0))) {
      if (asked === CONFIRM_ASKS) throw new RoundNotConfirmedError();
      asked++;
      if (!(await confirmRound(ctx, open))) {
        if (asked < CONFIRM_ASKS) await sleep(CONFIRM_PAUSE_MS);
        continue;
      }
    }
    const confirmed = { ...scene, unconfirmed_version: null };
    ctx.voteScenes.set(code, input.participantId, confirmed);
    return confirmed;
  }
}

/**
 * The vote, vote.cast and the room's record of it in one statement; undefined when the round closed
 * since the scene was read.
 */
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
      auto_reveal: scene.auto_reveal,
    },
    { source: SOURCE },
  );
  const room = toRoomMessage(event)!;
  return recordVote(ctx.em, {
    sessionId: scene.session_id,
    storyId: scene.story_id!,
    participantId: input.participantId,
    value: input.value,
    // Checked against the scene already (refusalIn): a token sent here is the voter's.
    withToken: input.token !== undefined,
    votedWithToken: scene.voted_with_token === true,
    at: now,
    versions: { session: scene.session_version, participant: scene.participant_version! },
    event: { id: event.id, payload: JSON.stringify(event), createdAt: new Date(event.occurred_at) },
    roomData: JSON.stringify(room.data),
    confirmedThrough: ctx.committedRounds.through(scene.session_id) ?? null,
  });
}

/**
 * A participant votes on the session's current story; a second vote replaces the first. One
 * statement writes the vote and vote.cast (without the value) together, checked by the domain rules
 * against the scene: the one this voter's last vote was checked against when the statement finds it
 * unchanged (one round trip), else read afresh. The relay publishes after it, off the request path.
 */
export async function castVote(ctx: SessionsContext, rawCode: string, input: CastVoteInput) {
  const code = sessionCodeOf(rawCode);
  if (!code) throw new SessionNotFoundError();
  const now = ctx.now();
  let scene = ctx.voteScenes.get(code, input.participantId);
  // A change whose round this replica just applied (a reset, the next story) is committed by the
  // stories unit a moment later: the vote waits to see it, rather than try, fail and try again.
  const settling = scene && ctx.committedRounds.settled(scene.session_id, FEED_WAIT_MS);
  if (settling) await settling;
  let saved = scene && !refusalIn(scene, input, now) ? await write(ctx, scene, input, now) : undefined;
  // The round was sealed, reset or replaced, or the session or the voter changed, since that scene:
  // read afresh, which says why the vote is refused, or gives the scene to try again. Twice at most.
  for (let attempt = 0; !saved && attempt < 2; attempt++) {
    scene = await freshScene(ctx, code, input, now);
    saved = await write(ctx, scene, input, now);
  }
  if (!saved) throw voteRefusalError('story_already_revealed', []);
  // The first vote with the token changed the voter's row: the scene kept follows it, so that the
  // voter's next vote is still one statement.
  if (saved.participantVersion)
    ctx.voteScenes.set(code, input.participantId, {
      ...scene!,
      voted_with_token: true,
      participant_version: saved.participantVersion,
    });
  ctx.publish();
  // Votes of one story commit side by side, so the count taken in the statement may miss one that
  // committed at the same moment; counted again after the commit, the last voter always sees everyone.
  const counts =
    saved.votesCast >= saved.totalParticipants
      ? saved
      : await roundCounts(ctx.em, scene!.session_id, scene!.story_id!);
  const stats = voteStats(counts.votesCast, counts.totalParticipants);
  // The last vote of an auto-reveal round: the client's next request finds the story revealed.
  if (scene!.auto_reveal && stats.all_voted) await revealIfComplete(ctx, scene!.session_id, scene!.story_id!);
  return { vote: saved.vote, stats };
}
