import { preparedRows, type EntityManager, type PreparedStatement } from '@pp/db';
import { asDateOrNull } from './sql.ts';

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
  auto_reveal: boolean;
  participant_id: number | null;
  participant_name: string | null;
  role: string | null;
  token_hash: string | null;
  /** Whether the voter has voted with its participant token (then every vote of it needs the token). */
  voted_with_token: boolean | null;
  story_id: string | null;
  sealed: boolean | null;
  /** The version of the change that opened the round, while the stories unit has not shown it committed. */
  unconfirmed_version: number | null;
  /** The open round's countdown: a round closed to votes at zero takes none after it. */
  countdown_ends_at: Date | null;
  countdown_at_zero: string | null;
  /**
   * Versions of the session (SESSION_VOTE_VERSION) and of the voter's row (xmin): the write takes the
   * vote only if both still hold.
   */
  session_version: string;
  participant_version: string | null;
}

/**
 * The version of what a vote reads of its session (`s`): its code, status, deck, deadline, token rule
 * and auto-reveal, as a digest. Not the row's version: every round command writes the session's row
 * (its round version), and a voter's scene read before it holds as long as these fields do.
 */
export const SESSION_VOTE_VERSION = `md5(row(s.code, s.status, s.voting_system, s.custom_deck_values, s.voteby_enabled,
  extract(epoch from s.vote_by_at), s.require_participant_token, s.auto_reveal)::text)`;

const VOTE_SCENE: PreparedStatement = {
  name: 'sessions.vote-scene',
  text: `select s.id as session_id, s.code, s.status, s.voting_system, s.custom_deck_values, s.voteby_enabled, s.auto_reveal,
          s.vote_by_at, s.require_participant_token, p.id as participant_id, p.name as participant_name,
          p.role, p.token_hash, p.voted_with_token, st.id as story_id, st.sealed, st.unconfirmed_version, st.countdown_ends_at, st.countdown_at_zero,
          ${SESSION_VOTE_VERSION} as session_version, p.xmin::text as participant_version
     from sessions s
     left join participants p on p.id = $1::bigint and p.session_id = s.id and p.removed_at is null
     left join rounds st on st.session_id = s.id and st.status = 'voting'
    where s.code = $2::bpchar`,
};

/**
 * The vote path's read, without a lock or a transaction: it only decides whether to try. The write
 * (recordVote) checks the round again under its lock and the row versions read here, so a seal or a
 * change of the session or the voter in between still wins.
 */
export async function readVoteScene(em: EntityManager, code: string, participantId: number) {
  const [found] = await preparedRows<VoteSceneRow>(em, VOTE_SCENE, [participantId, code]);
  return found && { ...found, vote_by_at: asDateOrNull(found.vote_by_at) };
}
