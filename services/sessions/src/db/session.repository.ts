import { isUuid, type RoundAnswer } from '@pp/contracts';
import { LockMode, preparedRows, type EntityManager, type PreparedStatement } from '@pp/db';
import { Session, type SessionRecord } from './entities/index.ts';
import { asDate, asDateOrNull, rows } from './sql.ts';
import type { AtZero } from './countdown.repository.ts';
import { roundSql, type RoundStatus } from './round.repository.ts';

export const findSessionByCode = (em: EntityManager, code: string) => em.findOne(Session, { code });
/** The session under its row lock, read afresh (inside a transaction): its changes take turns. */
export const lockSessionByCode = (tx: EntityManager, code: string) =>
  tx.findOne(Session, { code }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
export const findSessionById = (em: EntityManager, id: string) =>
  isUuid(id) ? em.findOne(Session, { id }) : Promise.resolve(null);

export interface SessionFilter {
  ownerId: string;
  /** A folder, or null for sessions in none. */
  folderId?: number | null;
  status?: string;
  sort: 'created_at' | 'updated_at' | 'name';
  order: 'asc' | 'desc';
  page: number;
  perPage: number;
}

/**
 * One page of the owner's sessions (not those still waiting for their stories), each with its facts,
 * and how many there are in all: one statement (the count rides along the page as a window). A page
 * past the end has no row to carry the count, so only then is it counted apart.
 */
export async function listSessionsWithFacts(em: EntityManager, f: SessionFilter) {
  const where = ['s.owner_id = ?', 's.provisional_since is null'];
  const params: unknown[] = [f.ownerId];
  if (f.folderId === null) where.push('s.folder_id is null');
  else if (f.folderId !== undefined) {
    where.push('s.folder_id = ?');
    params.push(f.folderId);
  }
  if (f.status !== undefined) {
    where.push('s.status = ?');
    params.push(f.status);
  }
  // The sort and order are checked against fixed lists at the edge; the column is named from this map.
  const direction = f.order === 'asc' ? 'asc' : 'desc';
  const order = `s.${sortColumns[f.sort]} ${direction}, s.id ${direction}`;
  const found = await rows<Record<string, unknown>>(
    em,
    `with page as (
       select ${sessionColumns(em)}, count(*) over () as total from sessions s
        where ${where.join(' and ')} order by ${order} limit ? offset ?)
     select s.*, ${FACT_COLUMNS} from page s ${CURRENT_STORY} order by ${order}`,
    [...params, f.perPage, (f.page - 1) * f.perPage],
  );
  const sessions = found.map(({ total: _, ...row }) => sessionAndFactsOf(em, row));
  if (found.length > 0) return { sessions, total: Number(found[0]!.total) };
  if (f.page === 1) return { sessions, total: 0 };
  const [counted] = await rows<{ total: string }>(
    em,
    `select count(*) as total from sessions s where ${where.join(' and ')}`,
    params,
  );
  return { sessions, total: Number(counted!.total) };
}

const sortColumns = { created_at: 'created_at', updated_at: 'updated_at', name: 'name' } as const;

/** A session's live participants (observers included) and its `voting` story, in one query. */
export async function sessionFactRow(em: EntityManager, sessionId: string) {
  const [found] = await rows<FactRow>(
    em,
    `select ${FACT_COLUMNS} from sessions s ${CURRENT_STORY} where s.id = ?`,
    [sessionId],
  );
  return found;
}

const FACT_COLUMNS = `(select count(*)::int from participants p where p.session_id = s.id and p.removed_at is null)
         as participants_count,
       st.id as story_id, st.title as story_title, st.status as story_status, st.position as story_position,
       st.countdown_ends_at as countdown_ends_at, st.countdown_at_zero as countdown_at_zero,
       st.countdown_seconds as countdown_seconds`;
const CURRENT_STORY = `left join rounds st on st.session_id = s.id and st.status = 'voting'`;

/**
 * The lookup's statement names the entity's columns (never `s.*`): a prepared statement whose result
 * shape changes under it (a column added by a newer replica's migration) would fail until reconnect.
 */
let sessionWithFacts: PreparedStatement | undefined;
function sessionWithFactsStatement(em: EntityManager): PreparedStatement {
  if (!sessionWithFacts) {
    sessionWithFacts = {
      name: 'sessions.session-with-facts',
      text: `select ${sessionColumns(em)}, ${FACT_COLUMNS} from sessions s ${CURRENT_STORY} where s.code = $1::bpchar`,
    };
  }
  return sessionWithFacts;
}

/**
 * A session by code together with its facts, in one query prepared once per connection (the public
 * lookup is the hottest read).
 */
export async function findSessionWithFacts(em: EntityManager, code: string) {
  const [found] = await preparedRows<Record<string, unknown>>(em, sessionWithFactsStatement(em), [code]);
  if (!found) return null;
  return sessionAndFactsOf(em, found);
}

/** The columns FACT_COLUMNS adds to a session's. */
const FACT_KEYS = [
  'participants_count',
  'story_id',
  'story_title',
  'story_status',
  'story_position',
  'countdown_ends_at',
  'countdown_at_zero',
  'countdown_seconds',
] as const satisfies ReadonlyArray<keyof FactRow>;

/** A row of the session's columns and its facts (FACT_COLUMNS), as the record and its facts. */
function sessionAndFactsOf(em: EntityManager, row: Record<string, unknown>) {
  const columns = { ...row };
  const facts: Record<string, unknown> = {};
  for (const key of FACT_KEYS) {
    facts[key] = row[key];
    delete columns[key];
  }
  return { session: sessionRecordOf(em, columns), facts: toFacts(facts as unknown as FactRow) };
}

/** The session's columns as the entity maps them (prepared statements name them, never `s.*`). */
const sessionColumns = (em: EntityManager) =>
  em
    .getMetadata(Session)
    .props.flatMap((prop) => prop.fieldNames.map((f) => `s.${f}`))
    .join(', ');

let roundStatement: PreparedStatement | undefined;
/** Each change of the one-statement round command happens only when the command applies. */
const OK = 'exists (select 1 from ok)';

/**
 * A round command the one statement below can apply (the rest takes a transaction). Each row is
 * changed by one part of the statement only: a sealed story is neither made current nor forgotten,
 * a re-voted story is the one made current (the promotion reopens its round), and a command seals
 * or re-votes, not both.
 */
export interface OneStatementRound {
  version: number;
  kind: string;
  current: { id: string; title: string; position: number } | null;
  forget: string[];
  /** A reveal by a user: the story's round is sealed (never the story made current). */
  seal?: { story_id: string; at: Date } | null;
  /** A re-vote: the story's votes go and it is made current; only a sealed round or none is cleared here. */
  reset?: string | null;
}

/** The one-statement round command's SQL (prepared once per connection). */
function roundStatementText(em: EntityManager): string {
  const session = '$1::uuid';
  const sealed = roundSql.seal({
    id: '$8::uuid',
    session,
    at: '$9::timestamptz',
    when: `$8::uuid is not null and ${OK}`,
  });
  const demoted = roundSql.demote({
    session,
    keep: '$5::uuid',
    when: `id is distinct from $8::uuid and id <> all($4::uuid[]) and ${OK}`,
  });
  const promoted = roundSql.promote({
    id: '$5::uuid',
    session,
    title: '$6::text',
    position: '$7::int',
    unconfirmed: `case when $3::text = 'resync' then null else $2::int end`,
    when: `$5::uuid is not null and ${OK}`,
  });
  return `with s as (
         select ${sessionColumns(em)}, s.round_version as previous from sessions s where s.id = $1::uuid for update),
       seen as (select round_version from sessions where id = $1::uuid),
       target as (select session_id, sealed from rounds where id = coalesce($8::uuid, $10::uuid)),
       foreign_round as (select 1 from target where session_id <> $1::uuid),
       deferred as (
         select 1 from target where $10::uuid is not null and not sealed
         union all select 1 from s, seen where s.previous <> seen.round_version),
       ok as (
         select 1 from s where $2::int > s.previous and ($3::text = 'resync' or s.status <> 'archived')
           and not exists (select 1 from foreign_round) and not exists (select 1 from deferred)),
       bump as (update sessions set round_version = $2::int where id = $1::uuid and ${OK}),
       -- (most changes delete nothing: then the table is not even looked at, whatever plan is cached)
       gone as (delete from rounds
                 where cardinality($4::uuid[]) > 0 and id = any($4::uuid[]) and session_id = $1::uuid
                   and ${OK}),
       sealed as (${sealed} returning id),
       cleared as (delete from votes where story_id = $10::uuid and ${OK}),
       demoted as (${demoted}),
       promoted as (${promoted})
       select s.*, exists (select 1 from ok) as applied, exists (select 1 from foreign_round) as foreign_round,
         exists (select 1 from deferred) as deferred,
         -- read by the function once the seal holds the round's lock, with a snapshot taken then
         (select round_votes(x.id) from sealed x) as sealed_votes
         from s`;
}

/**
 * A round command in one autocommit statement, under the session's row lock, only when the
 * command's version is above the last applied one and, for a change, the session is not archived:
 * deleted stories' rounds go; a sealed story's round is sealed once (it waits for the votes in flight
 * on it, which a vote holds share-locked; a later vote finds it sealed); a re-voted story's votes go;
 * the old current round goes back to pending (its votes kept) and the new one is open for votes.
 *
 * `foreign`: the sealed or re-voted story's round belongs to another session (nothing changed).
 * `deferred`: nothing changed, and the command needs the transaction, which reads and deletes the
 * votes after locking the rounds. That is so when the re-voted story's round is open (votes may be
 * in flight on it, which this statement's snapshot cannot see), and when another round command
 * committed while this one waited for the session's lock (the snapshot predates it; only the lock
 * sees it). A sealed round has no vote in flight (every vote on it committed before the seal did),
 * so otherwise this statement's snapshot holds all its votes.
 *
 * `sealedVotes`: when the command sealed a round, its votes with their voters, read once the seal
 * holds the round's lock (the votes in flight on it committed while the seal waited are among them:
 * see the round_votes function); else null.
 */
export async function applyRoundStatement(em: EntityManager, sessionId: string, command: OneStatementRound) {
  roundStatement ??= { name: 'sessions.round-statement', text: roundStatementText(em) };
  const seal = command.seal ?? null;
  const reset = command.reset ?? null;
  const [found] = await preparedRows<Record<string, unknown>>(em, roundStatement, [
    sessionId,
    command.version,
    command.kind,
    `{${command.forget.join(',')}}`,
    command.current?.id ?? null,
    command.current?.title ?? null,
    command.current?.position ?? null,
    seal?.story_id ?? null,
    seal?.at ?? null,
    reset,
  ]);
  if (!found) return undefined;
  const { previous: _previous, applied, foreign_round, deferred, sealed_votes, ...columns } = found;
  return {
    session: sessionRecordOf(em, columns),
    applied: applied as boolean,
    foreign: foreign_round as boolean,
    deferred: deferred as boolean,
    sealedVotes: (sealed_votes ?? null) as RoundAnswer['votes'],
  };
}

/**
 * Locks the session's row for a change of its round (FOR UPDATE: round commands of one session apply
 * one after the other) and moves its round version up to `version` (never down). Answers the session
 * and the round version it had before, or undefined when there is no such session.
 */
export async function lockForRound(tx: EntityManager, sessionId: string, version: number) {
  const [found] = await rows<Record<string, unknown>>(
    tx,
    `update sessions s set round_version = greatest(s.round_version, ?)
       from (select round_version as previous from sessions where id = ? for update) p
      where s.id = ? returning s.*, p.previous`,
    [version, sessionId, sessionId],
  );
  if (!found) return undefined;
  const { previous, ...columns } = found;
  return { session: sessionRecordOf(tx, columns), previousVersion: previous as number };
}

/**
 * The session of a row as plain data, without an entity in the identity map (the lookup only shows
 * it): columns renamed to properties as the entity maps them, timestamps made dates.
 */
export function sessionRecordOf(em: EntityManager, columns: Record<string, unknown>): SessionRecord {
  const data = em.getDriver().mapResult(columns, em.getMetadata(Session)) as Record<string, unknown>;
  return {
    ...data,
    voteByAt: asDateOrNull(data.voteByAt as string | null),
    createdAt: asDate(data.createdAt as string),
    updatedAt: asDate(data.updatedAt as string),
  } as SessionRecord;
}

interface FactRow {
  participants_count: number;
  story_id: string | null;
  story_title: string | null;
  story_status: RoundStatus | null;
  story_position: number | null;
  countdown_ends_at: Date | string | null;
  countdown_at_zero: AtZero | null;
  countdown_seconds: number | null;
}

/**
 * What a session record shows beside its own fields: how many are in the room, the current story, and
 * its round's countdown (the current story is the open round: a sealed round is not `voting`).
 */
export const toFacts = (r: FactRow) => ({
  participantsCount: r.participants_count,
  currentStory: r.story_id
    ? { id: r.story_id, title: r.story_title!, status: r.story_status!, position: r.story_position! }
    : null,
  countdown:
    r.story_id && r.countdown_ends_at
      ? {
          story_id: r.story_id,
          ends_at: new Date(r.countdown_ends_at).toISOString(),
          seconds: r.countdown_seconds ?? 0,
          at_zero: r.countdown_at_zero ?? 'reveal',
        }
      : null,
});
