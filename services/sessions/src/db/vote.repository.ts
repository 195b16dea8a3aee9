import type { EntityManager } from '@pp/db';
import { asDate, row, rows, run } from './sql.ts';

export interface StoredVote {
  id: number;
  participant_id: number;
  story_id: string;
  value: string;
  updated_at: Date;
}

const COUNTED = `p.role <> 'observer' and p.removed_at is null`;

export interface VoteToRecord {
  sessionId: string;
  storyId: string;
  participantId: number;
  value: string;
  at: Date;
  /** The row versions (xmin) of the session and the voter the vote was checked against. */
  versions: { session: string; participant: string };
  /** The vote.cast envelope (JSON) for the outbox; its data.stats are replaced by the counts below. */
  event: { id: string; payload: string; createdAt: Date };
}

/**
 * The whole write of a vote in one autocommit statement (one round trip, its own transaction): with
 * the round share-locked and still open, and the session and the voter as the vote was checked
 * against (same row versions), upserts the vote, counts the round's votes (this one's included) and
 * its participants, and writes vote.cast with those counts to the outbox. A seal holds the round lock exclusively, so a vote commits before the seal reads the
 * votes, or waits and then finds the round sealed: then nothing is written and nothing comes back.
 */
export async function recordVote(em: EntityManager, v: VoteToRecord) {
  const result = await row<StoredVote & { votes_cast: number; total: number }>(
    em,
    `with open_round as (
       select id from stories
        where id = ? and session_id = ? and status = 'voting' and sealed = false
        for share),
     voter as (
       select p.id from participants p join sessions s on s.id = p.session_id
        where p.id = ? and p.session_id = ? and ${COUNTED} and p.xmin = ?::xid and s.xmin = ?::xid),
     saved as (
       insert into votes (story_id, participant_id, value, created_at, updated_at)
       select open_round.id, voter.id, ?, ?, ? from open_round, voter
       on conflict (story_id, participant_id) do update set value = excluded.value, updated_at = excluded.updated_at
       returning id, participant_id, story_id, value, updated_at),
     counts as (
       select (select count(*)::int from votes v join participants p on p.id = v.participant_id
                where v.story_id = ? and v.participant_id <> ? and ${COUNTED}) + 1 as votes_cast,
              (select count(*)::int from participants p where p.session_id = ? and ${COUNTED}) as total),
     event as (
       insert into outbox (id, type, payload, created_at, attempts)
       select ?, 'vote.cast', jsonb_set(?::jsonb, '{data,stats}', jsonb_build_object(
                'votes_cast', counts.votes_cast, 'total_participants', counts.total,
                'all_voted', counts.total > 0 and counts.votes_cast >= counts.total)), ?, 0
         from saved, counts)
     select saved.*, counts.votes_cast, counts.total from saved, counts`,
    // prettier-ignore
    [v.storyId, v.sessionId, v.participantId, v.sessionId, v.versions.participant, v.versions.session, v.value, v.at, v.at,
     v.storyId, v.participantId, v.sessionId, v.event.id, v.event.payload, v.event.createdAt],
  );
  if (!result) return undefined;
  const { votes_cast, total, ...vote } = result;
  return {
    vote: { ...vote, updated_at: asDate(vote.updated_at) },
    votesCast: votes_cast,
    totalParticipants: total,
  };
}

/** The counts of a round (after a seal or when asked). */
export async function roundCounts(em: EntityManager, sessionId: string, storyId: string) {
  const counts = await row<{ cast: number; total: number }>(
    em,
    `select (select count(*)::int from votes v join participants p on p.id = v.participant_id
              where v.story_id = ? and ${COUNTED}) as cast,
            (select count(*)::int from participants p where p.session_id = ? and ${COUNTED}) as total`,
    [storyId, sessionId],
  );
  return { votesCast: counts!.cast, totalParticipants: counts!.total };
}

export interface SealedVote {
  participant_id: number;
  name: string;
  role: string;
  value: string;
  updated_at: Date;
}

/** The votes of a round with their voters, in the order they were first cast. */
export async function votesOfStory(em: EntityManager, storyId: string): Promise<SealedVote[]> {
  const found = await rows<SealedVote>(
    em,
    `select p.id as participant_id, p.name, p.role, v.value, v.updated_at
       from votes v join participants p on p.id = v.participant_id
      where v.story_id = ? order by v.created_at, v.id`,
    [storyId],
  );
  return found.map((v) => ({ ...v, updated_at: asDate(v.updated_at) }));
}

export const deleteVotesOfStory = (em: EntityManager, storyId: string) =>
  run(em, 'delete from votes where story_id = ?', [storyId]);

/** A participant leaving or becoming an observer loses its votes on rounds not sealed yet. */
export const deleteOpenVotesOf = (em: EntityManager, participantId: number) =>
  run(
    em,
    `delete from votes v using stories s
      where v.story_id = s.id and s.sealed = false and v.participant_id = ?`,
    [participantId],
  );
