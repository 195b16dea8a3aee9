import type { StoryForUnits } from '@pp/contracts';
import { plannedRows, type EntityManager } from '@pp/db';
import type { StoryStatus } from '../domain/story-queue.ts';
import type { KeptVote } from '../domain/vote-names.ts';
import { Story, type StoryRecord } from './entities/index.ts';

export const findStory = (em: EntityManager, id: string) => em.findOne(Story, { id }, { refresh: true });

/** The session's stories in queue order (fresh from the database). */
export const storiesOf = (em: EntityManager, sessionId: string) =>
  em.find(Story, { sessionId }, { orderBy: { position: 'asc' }, refresh: true });

/**
 * The version of a session's stories as a whole: their number and the newest row version (xmin) among
 * them. Any insert, update or delete of one of them changes it, so what was built from the stories
 * under one version holds for as long as this answers the same.
 */
export async function storiesVersion(em: EntityManager, sessionId: string): Promise<string> {
  const [row] = await em
    .getConnection()
    .execute<Array<{ version: string }>>(
      `select count(*) || ':' || coalesce(max(xmin::text::bigint), 0) as version from stories where session_id = ?`,
      [sessionId],
      'all',
      em.getTransactionContext(),
    );
  return row!.version;
}

/** A timestamp as a plain read gives it (a Date, or text), or none. */
type RowDate = Date | string | null;
const isoOrNull = (value: RowDate) => (value === null ? null : new Date(value).toISOString());

/** What analytics reads of a session's stories (plain rows: no entity to track for a read). */
export interface StoryOutcome {
  id: string;
  title: string;
  status: StoryStatus;
  final_estimate: string | null;
  revealed_at: string | null;
  votes: KeptVote[] | null;
}

export async function storyOutcomes(em: EntityManager, sessionId: string): Promise<StoryOutcome[]> {
  const rows = await em
    .getConnection()
    .execute<Array<Omit<StoryOutcome, 'revealed_at'> & { revealed_at: RowDate }>>(
      `select id, title, status, final_estimate, revealed_at, votes from stories where session_id = ? order by position`,
      [sessionId],
      'all',
      em.getTransactionContext(),
    );
  return rows.map((r) => ({ ...r, revealed_at: isoOrNull(r.revealed_at) }));
}

/**
 * A session's stories in queue order, only those of `ids` and of `statuses` when given. Plain rows, and
 * of the votes only their values: a read of a few hundred stories costs no entity tracking.
 */
export async function storiesForUnitsOf(
  em: EntityManager,
  sessionId: string,
  filter: { ids?: readonly string[]; statuses?: readonly StoryStatus[] },
): Promise<StoryForUnits[]> {
  const params: unknown[] = [sessionId];
  let where = 'session_id = ?';
  if (filter.ids) {
    if (filter.ids.length === 0) return [];
    where += ' and id in (?)';
    params.push(filter.ids);
  }
  if (filter.statuses) {
    if (filter.statuses.length === 0) return [];
    where += ' and status in (?)';
    params.push(filter.statuses);
  }
  const rows = await em.getConnection().execute<Array<StoryForUnits & { revealed_at: RowDate }>>(
    `select id, title, description, acceptance_criteria, status, position,
            case when status = 'revealed' then final_estimate end as final_estimate,
            case when status = 'revealed' then revealed_at end as revealed_at,
            case when status = 'revealed' then coalesce(jsonb_path_query_array(votes, '$[*].value'), '[]') else '[]' end as votes
       from stories where ${where} order by position`,
    params,
    'all',
    em.getTransactionContext(),
  );
  return rows.map((r) => ({ ...r, revealed_at: isoOrNull(r.revealed_at) }));
}

export interface NewStory {
  /** Chosen by the caller: a change runs twice (planned, then committed) and must make the same story. */
  id: string;
  sessionId: string;
  title: string;
  description: string;
  acceptanceCriteria: string;
  status: StoryStatus;
  position: number;
}

/** A new story's record (written by the change that makes it). */
export function newStory(data: NewStory, now: Date): StoryRecord {
  return {
    ...data,
    finalEstimate: null,
    votes: null,
    revealedAt: null,
    votingStartedAt: data.status === 'voting' ? now : null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Why a story is due to be revealed by the deadline task, and (for a countdown) its time of zero and
 * whether its round is still open (the story voting, its session not archived).
 */
export type DueReveal =
  | { id: string; reason: 'vote_by_deadline' }
  | { id: string; reason: 'countdown'; revealAt: Date; open: boolean };

/**
 * What the deadline task reads on each poll. Each branch starts from what is due (an index range up
 * to now) and looks each one's story up by key (a subquery with a limit is not flattened into a join,
 * which, planned without statistics, could read every open story of every session instead): the
 * sessions whose vote-by deadline passed while their current story, opened before it, is still open,
 * and the countdowns past zero that were not tried yet, open or not (one whose round ended otherwise
 * is let go rather than left to fill the limit). Planned each time (see plannedRows).
 */
export const OVERDUE_SQL = `(select st.id, null::timestamptz as reveal_at, se.vote_by_at as due, true as open
     from sessions se
     cross join lateral (
       select s.id from stories s
        where s.session_id = se.id and s.status = 'voting'
          and (s.voting_started_at is null or s.voting_started_at <= se.vote_by_at)
        limit 1) st
    -- the partial index sessions_deadline_due_idx, whose condition this repeats
    where se.voteby_enabled and se.voting_since <= se.vote_by_at and se.status <> 'archived'
      and se.vote_by_at <= $1
    order by se.vote_by_at limit $2)
  union all
  (select c.story_id, c.reveal_at, c.reveal_at, coalesce(st.open, false)
     from round_countdowns c
     left join lateral (
       -- by the story's key alone: a condition on its status could be served by the index of every
       -- open story
       select s.status = 'voting' and se.status <> 'archived' as open
         from stories s join sessions se on se.id = s.session_id
        where s.id = c.story_id
        limit 1) st on true
    where c.reveal_at is not null and c.reveal_at <= $1
    order by c.reveal_at limit $2)
  order by due`;

/**
 * Stories due to be revealed: still open at their session's vote-by deadline (`voting`, opened before
 * the deadline, and the deadline has passed), or whose round's countdown, set to reveal, has reached
 * zero. A story opened after the deadline is left to the owner, and an archived session (read-only) is
 * left as it is.
 */
export async function overdueStories(em: EntityManager, now: Date, limit = 50): Promise<DueReveal[]> {
  const rows = await plannedRows<{ id: string; reveal_at: Date | null; open: boolean }>(em, OVERDUE_SQL, [
    now,
    limit,
  ]);
  return rows.map((r) =>
    r.reveal_at === null
      ? { id: r.id, reason: 'vote_by_deadline' }
      : { id: r.id, reason: 'countdown', revealAt: new Date(r.reveal_at), open: r.open },
  );
}
