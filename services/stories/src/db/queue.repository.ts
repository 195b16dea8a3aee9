import type { EventEnvelope } from '@pp/contracts';
import { preparedRows, type EntityManager, type PreparedStatement } from '@pp/db';
import { currentTraceparent, insertOutboxSql } from '@pp/events';
import type { SessionRecord, StoryRecord } from './entities/index.ts';

/**
 * The write path of a change of a session's stories, in two prepared statements (one round trip
 * each, outside transactions): the plan's read, which also takes the next round version, and the
 * commit, which writes the change only if nothing else was planned or committed since the read.
 */

/** The fields of a story that can be large (texts of up to 10,000 characters, the kept votes). */
export type HeavyStoryField = 'description' | 'acceptanceCriteria' | 'votes';

/**
 * A story of the queue as a change reads it: every story's place, status and title, but the large
 * fields only of the story the change is about (a change of the queue never touches the others').
 */
export type QueueStory = Omit<StoryRecord, HeavyStoryField> & Partial<Pick<StoryRecord, HeavyStoryField>>;

export interface PlannedQueue {
  session: SessionRecord;
  /**
   * The stories read (all of the session's, or those a `current` reading takes), in queue order, as
   * of the read, without their large fields.
   */
  stories: QueueStory[];
  /** How many stories the session has, as of the read. */
  size: number;
  /** The story the change is about (by id), whole; undefined when the change names none or it is not there. */
  target?: StoryRecord;
  /** Changes committed to the queue: the commit checks it is still the one read. */
  queueVersion: number;
  /** The round version taken for this change; undefined when the caller is not the session's owner. */
  roundVersion?: number;
  /** Whether the round was settled before this change took its version. */
  wasSettled?: boolean;
  /** A change that gives way (`yields`) found another one under way, and took no version. */
  busy: boolean;
  /**
   * Whether the session is archived, or its archive was asked, as far as the read model knows (read
   * with the round version; false when none was taken).
   */
  archiving: boolean;
}

/** Where the change happens: the session of a story, the session of a code, or a session by id. */
export type QueueTarget = { storyId: string } | { code: string } | { sessionId: string };

/**
 * A story of the queue as the plan reads it, in QueueRow's order: as an array, since json_build_object
 * would cost PostgreSQL twice the CPU on a long queue (it looks up every argument's type, keys
 * included, per row).
 */
const QUEUE_COLUMNS = `st.id, st.title, st.status, st.position, st.final_estimate, st.revealed_at,
  st.voting_started_at, st.created_at, st.updated_at`;

/**
 * What a change reads of the queue: every story (`queue`), or only what a change of the current story
 * works with (`current`): the current (voting) story, the change's target and the first pending story,
 * whatever the length of the queue. Adding a story, activating, resetting or revealing one read
 * `current`; moving and deleting stories renumber the queue and read it whole.
 */
export type QueueReading = 'queue' | 'current';

const READS: Record<QueueReading, string> = {
  queue: `select ${QUEUE_COLUMNS} from stories st where st.session_id = snap.id`,
  current: `select ${QUEUE_COLUMNS} from stories st
             where st.session_id = snap.id and st.status = 'voting'
            union select ${QUEUE_COLUMNS} from stories st
             where st.id = $2::uuid and st.session_id = snap.id
            union (select ${QUEUE_COLUMNS} from stories st
                    where st.session_id = snap.id and st.status = 'pending' order by st.position limit 1)`,
};

const planStatement = (reading: QueueReading): PreparedStatement => ({
  name: `stories.plan-${reading}`,
  text: `with target as (
       select coalesce($1::uuid,
                       (select session_id from stories where id = $2::uuid),
                       (select id from sessions where code = $3::text order by updated_at desc limit 1)) as id),
     snap as (select s.* from sessions s join target t on t.id = s.id),
     bump as (
       update sessions s set round_version = s.round_version + 1,
              round_unsettled_since = coalesce(s.round_unsettled_since, now())
         -- the row as the latest change left it (locked first: a change planned or an archive notice
         -- taken meanwhile is seen; the snapshot above may predate them)
         from (select id, round_unsettled_since is null as settled,
                      status = 'archived' or archiving_since is not null as archiving
                 from sessions where id = (select id from target) for update) old
        -- the row by its key (a join on old alone may be planned as a scan of the whole table)
        where s.id = (select id from target) and s.id = old.id and ($4::text is null or s.owner_id = $4::text)
          -- a change that gives way takes no version while another one is under way
          and ($5::boolean is not true or old.settled)
        returning s.round_version, old.settled as was_settled, old.archiving)
     select row_to_json(snap) as session, snap.queue_version,
            (select round_version from bump) as round_version, (select was_settled from bump) as was_settled,
            (select archiving from bump) as archiving,
            coalesce((select json_agg(json_build_array(${QUEUE_COLUMNS}) order by st.position)
               from (${READS[reading]}) st), '[]') as stories,
            -- positions run 1..n without gaps: the last one is the length of the queue (one index probe)
            (select coalesce(max(st.position), 0) from stories st where st.session_id = snap.id) as size,
            (select json_build_array(${QUEUE_COLUMNS}, st.description, st.acceptance_criteria, st.votes)
               from stories st where st.id = $2::uuid and st.session_id = snap.id) as target
       from snap`,
});
const PLANS: Record<QueueReading, PreparedStatement> = {
  queue: planStatement('queue'),
  current: planStatement('current'),
};

const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));

function sessionOf(row: Record<string, unknown>): SessionRecord {
  return {
    id: row.id as string,
    code: row.code as string,
    ownerId: row.owner_id as string,
    name: row.name as string,
    status: row.status as string,
    votingSystem: row.voting_system as string,
    deck: row.deck as string[],
    recordVoteNames: row.record_vote_names as boolean,
    autoReveal: row.auto_reveal as boolean,
    votebyEnabled: row.voteby_enabled as boolean,
    voteByAt: date(row.vote_by_at),
    updatedAt: date(row.updated_at)!,
  };
}

/** A story of the plan's queue, as QUEUE_COLUMNS reads it (the session's id is the plan's). */
type QueueRow = [
  id: string,
  title: string,
  status: StoryRecord['status'],
  position: number,
  finalEstimate: string | null,
  revealedAt: string | null,
  votingStartedAt: string | null,
  createdAt: string,
  updatedAt: string,
];

/** The story the change is about: its queue columns, then its large fields. */
type TargetRow = [
  ...QueueRow,
  description: string,
  acceptanceCriteria: string,
  votes: StoryRecord['votes'] | null,
];

function queueStoryOf(sessionId: string, row: QueueRow | TargetRow): QueueStory {
  const [id, title, status, position, finalEstimate, revealedAt, votingStartedAt, createdAt, updatedAt] = row;
  return {
    id,
    sessionId,
    title,
    status,
    position,
    finalEstimate,
    revealedAt: date(revealedAt),
    votingStartedAt: date(votingStartedAt),
    createdAt: new Date(createdAt),
    updatedAt: new Date(updatedAt),
  };
}

function storyOf(sessionId: string, row: TargetRow): StoryRecord {
  return {
    ...queueStoryOf(sessionId, row),
    description: row[9],
    acceptanceCriteria: row[10],
    votes: row[11] ?? null,
  };
}

/**
 * The session and its stories as they are (all, or those a `current` reading takes), and the next
 * round version, taken (and the round marked unsettled) only when `ownerId` owns the session or is
 * null (the service itself), and, for a change of the service that gives way (`yields`), only when
 * no other change of the session is under way (the round is settled). Undefined when the read model
 * knows no such session or story.
 */
export async function planQueue(
  em: EntityManager,
  target: QueueTarget,
  ownerId: string | null,
  reading: QueueReading = 'queue',
  yields = false,
): Promise<PlannedQueue | undefined> {
  if (yields && ownerId !== null) throw new Error("only the service's own changes give way");
  const [found] = await preparedRows<Record<string, unknown>>(em, PLANS[reading], [
    'sessionId' in target ? target.sessionId : null,
    'storyId' in target ? target.storyId : null,
    'code' in target ? target.code : null,
    ownerId,
    yields,
  ]);
  if (!found) return undefined;
  const session = sessionOf(found.session as Record<string, unknown>);
  return {
    session,
    stories: (found.stories as QueueRow[]).map((row) => queueStoryOf(session.id, row)),
    size: found.size as number,
    target: found.target ? storyOf(session.id, found.target as TargetRow) : undefined,
    queueVersion: found.queue_version as number,
    roundVersion: (found.round_version as number | null) ?? undefined,
    wasSettled: (found.was_settled as boolean | null) ?? undefined,
    // The service's own change (no owner to check) took no version: it gave way.
    busy: yields && found.round_version === null,
    archiving: found.archiving === true,
  };
}

const STORY_COLUMNS = `id uuid, title text, description text, acceptance_criteria text, status text, position int,
  final_estimate text, votes jsonb, revealed_at timestamptz, voting_started_at timestamptz,
  created_at timestamptz, updated_at timestamptz, whole boolean`;

const COMMIT: PreparedStatement = {
  name: 'stories.commit-queue',
  text: `with ok as (
       select id from sessions where id = $1::uuid and round_version = $2::int and queue_version = $3::int
          for update),
     changed as (
       update stories st set title = c.title,
              -- the large fields are written only from a story read whole (the others came without them)
              description = case when c.whole then c.description else st.description end,
              acceptance_criteria = case when c.whole then c.acceptance_criteria else st.acceptance_criteria end,
              votes = case when c.whole then c.votes else st.votes end,
              status = c.status, position = c.position, final_estimate = c.final_estimate, revealed_at = c.revealed_at,
              voting_started_at = c.voting_started_at, updated_at = c.updated_at
         from jsonb_to_recordset($4::jsonb) as c(${STORY_COLUMNS})
        where st.id = c.id and st.session_id = $1::uuid and exists (select 1 from ok)),
     created as (
       insert into stories (id, session_id, title, description, acceptance_criteria, status, position,
                            final_estimate, votes, revealed_at, voting_started_at, created_at, updated_at)
       select c.id, $1::uuid, c.title, c.description, c.acceptance_criteria, c.status, c.position,
              c.final_estimate, c.votes, c.revealed_at, c.voting_started_at, c.created_at, c.updated_at
         from jsonb_to_recordset($5::jsonb) as c(${STORY_COLUMNS})
        where exists (select 1 from ok)),
     deleted as (
       delete from stories where session_id = $1::uuid and id = any($6::uuid[]) and exists (select 1 from ok)),
     -- what is published carries the change's round version: the sessions unit, seeing it on its live
     -- feed, knows the change is committed and the round it opened takes votes
     published as (
       select e || jsonb_build_object('round_version', $2::int) as e
         from jsonb_array_elements($7::jsonb) e where exists (select 1 from ok)),
     events as (${insertOutboxSql('select e from published', '$8')}),
     history as (
       insert into story_history (event_id, session_id, occurred_at, envelope)
       select (e->>'id')::uuid, $1::uuid, (e->>'occurred_at')::timestamptz, e from published),
     -- when the current story was opened, as the change leaves it (see DeadlineDueMigration)
     done as (
       update sessions set queue_version = queue_version + 1, round_unsettled_since = null,
              voting_since = $9::timestamptz
        where id = $1::uuid and exists (select 1 from ok))
     select count(*)::int as committed from ok`,
};

export interface QueueWrite {
  sessionId: string;
  roundVersion: number;
  queueVersion: number;
  /** Stories the change changed: written whole when their large fields were read (or made) by it. */
  changed: Array<{ story: QueueStory; whole: boolean }>;
  created: StoryRecord[];
  deleted: string[];
  events: EventEnvelope[];
  /** The session's current (voting) story as the change leaves it, if any. */
  current: QueueStory | undefined;
}

const rowOf = (s: QueueStory, whole: boolean) => ({
  id: s.id,
  title: s.title,
  whole,
  description: whole ? s.description : null,
  acceptance_criteria: whole ? s.acceptanceCriteria : null,
  status: s.status,
  position: s.position,
  final_estimate: s.finalEstimate ?? null,
  votes: whole ? (s.votes ?? null) : null,
  revealed_at: s.revealedAt ?? null,
  voting_started_at: s.votingStartedAt ?? null,
  created_at: s.createdAt,
  updated_at: s.updatedAt,
});

/**
 * Writes a change of the stories with its events (in the outbox, and in the session's story history),
 * and marks the round settled (keeping when its current story was opened), in one autocommit
 * statement: only if the session's round version and queue are still those the change was planned on
 * (under the session's row lock). Resolves with whether it wrote.
 */
export async function commitQueue(em: EntityManager, write: QueueWrite): Promise<boolean> {
  const [result] = await preparedRows<{ committed: number }>(em, COMMIT, [
    write.sessionId,
    write.roundVersion,
    write.queueVersion,
    JSON.stringify(write.changed.map((c) => rowOf(c.story, c.whole))),
    JSON.stringify(write.created.map((s) => rowOf(s, true))),
    `{${write.deleted.join(',')}}`,
    JSON.stringify(write.events),
    currentTraceparent(),
    write.current ? (write.current.votingStartedAt ?? '-infinity') : null,
  ]);
  return result?.committed === 1;
}
