import type { RoundAnswer } from '@pp/contracts';
import { preparedRows, type EntityManager, type PreparedStatement } from '@pp/db';
import { currentTraceparent, insertOutboxSql } from '@pp/events';
import { asDate, row, rows, run } from './sql.ts';
import { SESSION_VOTE_VERSION } from './vote-scene.repository.ts';

export interface StoredVote {
  id: number;
  participant_id: number;
  story_id: string;
  value: string;
  updated_at: Date;
}

const COUNTED = `p.role <> 'observer' and p.removed_at is null`;
/**
 * Whether vote `v` is a counted voter's, looked up by the voter's key: the count walks the round's
 * votes (never the whole participants table, whatever plan the statistics would suggest).
 */
const BY_COUNTED_VOTER = `(select ${COUNTED} from participants p where p.id = v.participant_id)`;

export interface VoteToRecord {
  sessionId: string;
  storyId: string;
  participantId: number;
  value: string;
  /** Cast with the voter's participant token (already checked): the voter is marked as voting with it. */
  withToken: boolean;
  /** Whether the voter had voted with its token before, as the scene says (the row version confirms it). */
  votedWithToken: boolean;
  at: Date;
  /** The versions of the session (SESSION_VOTE_VERSION) and of the voter (xmin) the vote was checked against. */
  versions: { session: string; participant: string };
  /** The vote.cast envelope (JSON) for the outbox; its data.stats are replaced by the counts below. */
  event: { id: string; payload: string; createdAt: Date };
  /** What the live room shows of it (JSON); its stats are replaced by the same counts. */
  roomData: string;
  /**
   * The latest change of the session's stories this replica has seen committed: a round a change of
   * that version or an earlier one opened takes the vote though not confirmed in the table.
   */
  confirmedThrough: number | null;
}

/*
 * An open round holds only counted voters' votes: leaving or becoming an observer takes a
 * participant's open votes away, in a transaction that locks the participant's row first, and a vote
 * holds that row share-locked. So the vote statement counts the round's votes without looking up
 * their voters (the seal, which hands the votes over, still checks each voter).
 */
const recordVoteStatement = (name: string, voterLock: string): PreparedStatement => ({
  name,
  text: `with open_round as (
       select id from rounds
        where id = $1::uuid and session_id = $2::uuid and status = 'voting' and sealed = false
          and (unconfirmed_version is null or unconfirmed_version <= $14::int)
          and not coalesce(countdown_at_zero = 'close' and countdown_ends_at <= $7::timestamptz, false)
        for share),
     voter as (
       select p.id from participants p join sessions s on s.id = p.session_id
        where p.id = $3::int and p.session_id = $2::uuid and ${COUNTED}
          and p.xmin = $4::text::xid and ${SESSION_VOTE_VERSION} = $5::text
          and ($12::boolean or not p.voted_with_token)
        for ${voterLock} of p),
     saved as (
       insert into votes (story_id, participant_id, value, created_at, updated_at)
       select open_round.id, voter.id, $6::text, $7::timestamptz, $7::timestamptz from open_round, voter
       on conflict (story_id, participant_id) do update set value = excluded.value, updated_at = excluded.updated_at
       returning id, participant_id, story_id, value, updated_at),
     marked as (
       update participants set voted_with_token = true
        where $12::boolean and id = $3::int and not voted_with_token and exists (select from saved)
       returning xmin::text as version),
     counts as (
       select (select count(*)::int from votes v
                where v.story_id = $1::uuid and v.participant_id <> $3::int) + 1 as votes_cast,
              (select count(*)::int from participants p where p.session_id = $2::uuid and ${COUNTED}) as total),
     stats as (
       select jsonb_build_object('votes_cast', votes_cast, 'total_participants', total,
                'all_voted', total > 0 and votes_cast >= total) as stats
         from saved, counts),
     event as (${insertOutboxSql(`select jsonb_set($9::jsonb, '{data,stats}', stats.stats) from stats`, '$13')}),
     room as (
       insert into room_events (event_id, session_id, type, payload, occurred_at)
       select $8::uuid, $2::uuid, 'vote.cast', jsonb_set($11::jsonb, '{stats}', stats.stats), $10::timestamptz
         from stats)
     select saved.*, counts.votes_cast, counts.total, (select version from marked) as participant_version
       from saved, counts`,
});
const RECORD_VOTE = recordVoteStatement('sessions.record-vote', 'share');
/**
 * A voter's first vote with its token marks the voter's row: the row is locked for that update from
 * the start (two such votes at once would each hold a share lock and wait for the other's). The
 * second finds the row changed and is read afresh.
 */
const FIRST_VOTE_WITH_TOKEN = recordVoteStatement('sessions.record-first-vote-with-token', 'no key update');

/**
 * The whole write of a vote in one autocommit statement (one round trip, its own transaction,
 * prepared once per connection): with the round share-locked, still open and confirmed (in the table, or by a
 * change seen committed), and the session and the
 * voter as the vote was checked against (same versions, the voter's row share-locked), and a vote
 * without the token only for a voter that never voted with it, upserts the vote, marks the voter as
 * voting with its token when it did (the first time), counts the round's votes (this one's included)
 * and its participants, writes vote.cast with those counts to the outbox and records what the live
 * room shows of it. A seal holds the round
 * lock exclusively, so a vote commits before the seal reads the votes, or waits and then finds the
 * round sealed: then nothing is written and nothing comes back.
 */
export async function recordVote(em: EntityManager, v: VoteToRecord) {
  const [result] = await preparedRows<
    StoredVote & { votes_cast: number; total: number; participant_version: string | null }
  >(em, v.withToken && !v.votedWithToken ? FIRST_VOTE_WITH_TOKEN : RECORD_VOTE, [
    v.storyId,
    v.sessionId,
    v.participantId,
    v.versions.participant,
    v.versions.session,
    v.value,
    v.at,
    v.event.id,
    v.event.payload,
    v.event.createdAt,
    v.roomData,
    v.withToken,
    currentTraceparent(),
    v.confirmedThrough,
  ]);
  if (!result) return undefined;
  const { votes_cast, total, participant_version, ...vote } = result;
  return {
    vote: { ...vote, updated_at: asDate(vote.updated_at) },
    votesCast: votes_cast,
    totalParticipants: total,
    /** The voter's new row version when this vote marked it as voting with its token; else null. */
    participantVersion: participant_version,
  };
}

/**
 * The counts of a round (after a seal or when asked): the round_stats function (migrations 0014, 0015
 * and 0018), which the outbox relay also counts each vote.cast with as it publishes it.
 */
export async function roundCounts(em: EntityManager, sessionId: string, storyId: string) {
  const found = await row<{ stats: { votes_cast: number; total_participants: number } }>(
    em,
    'select round_stats(?, ?) as stats',
    [storyId, sessionId],
  );
  return { votesCast: found!.stats.votes_cast, totalParticipants: found!.stats.total_participants };
}

/** Who has voted in a round so far (counted voters only, never the values), in the order they first voted. */
export async function votersOfRound(em: EntityManager, storyId: string): Promise<number[]> {
  const found = await rows<{ participant_id: number }>(
    em,
    `select v.participant_id from votes v where v.story_id = ? and ${BY_COUNTED_VOTER} order by v.created_at, v.id`,
    [storyId],
  );
  return found.map((v) => v.participant_id);
}

/**
 * The votes of a round with their voters, in the order they were first cast, as a seal hands them
 * over: the round_votes function (migration 0013), which the round command's statement also calls.
 */
export async function sealedVotesOf(em: EntityManager, storyId: string): Promise<RoundAnswer['votes']> {
  const found = await row<{ votes: RoundAnswer['votes'] }>(em, 'select round_votes(?) as votes', [storyId]);
  return found!.votes;
}

export const deleteVotesOfStory = (em: EntityManager, storyId: string) =>
  run(em, 'delete from votes where story_id = ?', [storyId]);

/**
 * The participant's votes on rounds not sealed yet: each vote's round looked up by its key (a join
 * could be planned as a read of every round of every session).
 */
export const DELETE_OPEN_VOTES_SQL = `delete from votes v
      where v.participant_id = ? and (select not s.sealed from rounds s where s.id = v.story_id)`;

/** A participant leaving or becoming an observer loses its votes on rounds not sealed yet. */
export const deleteOpenVotesOf = (em: EntityManager, participantId: number) =>
  run(em, DELETE_OPEN_VOTES_SQL, [participantId]);

/** The session's unsealed rounds, locked; then their votes (see unsealedVotes). */
export const LOCK_UNSEALED_ROUNDS_SQL =
  'select id from rounds where session_id = ? and sealed = false order by id for update';
export const UNSEALED_VOTES_SQL = `select distinct r.id as story_id, r.title, v.value
       from rounds r
       -- each round's votes by its key (offset 0: not flattened into a join, which may read every vote)
       cross join lateral (select v.value from votes v where v.story_id = r.id offset 0) v
      where r.session_id = ? and r.sealed = false
      order by r.title, v.value`;

/**
 * The votes of the session's rounds not sealed yet (the open one, and stories made pending with their
 * votes kept), by round, under the locks of those rounds: votes in flight commit first, and a later
 * one waits, then finds the session changed and is refused.
 */
export async function unsealedVotes(tx: EntityManager, sessionId: string) {
  await run(tx, LOCK_UNSEALED_ROUNDS_SQL, [sessionId]);
  return rows<{ story_id: string; title: string; value: string }>(tx, UNSEALED_VOTES_SQL, [sessionId]);
}
