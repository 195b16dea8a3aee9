import type { EntityManager } from '@pp/db';
import { asDate, asDateOrNull, row, rows, run } from './sql.ts';

/** A session, the voter (when one of its live participants) and the open round, as the vote path reads them. */
export interface VoteSceneRow {
  session_id: string;
  code: string;
  status: string;
  voting_system: string;
  custom_deck_values: string[] | null;
  voteby_enabled: boolean;
  vote_by_at: Date | null;
  require_participant_token: boolean;
  participant_id: number | null;
  participant_name: string | null;
  role: string | null;
  token_hash: string | null;
  story_id: string | null;
  sealed: boolean | null;
}

const SCENE_COLUMNS = `s.id as session_id, s.code, s.status, s.voting_system, s.custom_deck_values, s.voteby_enabled,
  s.vote_by_at, s.require_participant_token, p.id as participant_id, p.name as participant_name, p.role,
  p.token_hash`;
async function sceneRow(em: EntityManager, query: string, params: unknown[]) {
  const found = await row<VoteSceneRow>(em, query, params);
  return found && { ...found, vote_by_at: asDateOrNull(found.vote_by_at) };
}

const VOTER = `left join participants p on p.id = ? and p.session_id = s.id and p.removed_at is null`;

/**
 * The vote path's one read: the scene, with the current story's round share-locked. Votes of one
 * story run side by side (they only share the lock); a seal takes the lock exclusively, so a vote
 * either commits before the seal reads the votes, or waits and then sees the round sealed.
 */
export const lockVoteScene = (em: EntityManager, code: string, participantId: number) =>
  sceneRow(
    em,
    `select ${SCENE_COLUMNS}, st.id as story_id, st.sealed
       from sessions s
       join stories st on st.session_id = s.id and st.status = 'voting'
       ${VOTER}
      where s.code = ?
      order by st.status_at desc nulls last
      limit 1
      for share of st`,
    [participantId, code],
  );

/** The scene when no story is open (only to explain why a vote is refused). */
export const readVoteScene = (em: EntityManager, code: string, participantId: number) =>
  sceneRow(
    em,
    `select ${SCENE_COLUMNS}, null as story_id, null as sealed from sessions s ${VOTER} where s.code = ?`,
    [participantId, code],
  );

export interface StoredVote {
  id: number;
  participant_id: number;
  story_id: string;
  value: string;
  updated_at: Date;
}

const COUNTED = `p.role <> 'observer' and p.removed_at is null`;

/**
 * Records the participant's vote on the story, replacing an earlier one, and counts in the same
 * statement: the votes of counted participants (this one's included) and the counted participants.
 */
export async function upsertVote(
  em: EntityManager,
  v: { sessionId: string; storyId: string; participantId: number; value: string; at: Date },
) {
  const result = await row<StoredVote & { others: number; total: number }>(
    em,
    `with saved as (
       insert into votes (story_id, participant_id, value, created_at, updated_at) values (?, ?, ?, ?, ?)
       on conflict (story_id, participant_id) do update set value = excluded.value, updated_at = excluded.updated_at
       returning id, participant_id, story_id, value, updated_at)
     select saved.*,
       (select count(*)::int from votes v join participants p on p.id = v.participant_id
         where v.story_id = ? and v.participant_id <> ? and ${COUNTED}) as others,
       (select count(*)::int from participants p where p.session_id = ? and ${COUNTED}) as total
     from saved`,
    [v.storyId, v.participantId, v.value, v.at, v.at, v.storyId, v.participantId, v.sessionId],
  );
  const { others, total, ...vote } = result!;
  return {
    vote: { ...vote, updated_at: asDate(vote.updated_at) },
    votesCast: others + 1,
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
