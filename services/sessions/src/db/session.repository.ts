import { preparedRows, type EntityManager, type PreparedStatement } from '@pp/db';
import { Session, type SessionRecord } from './entities/index.ts';
import { asDate, asDateOrNull, rows } from './sql.ts';
import type { StoryStatus } from './story.repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

export const findSessionByCode = (em: EntityManager, code: string) => em.findOne(Session, { code });
export const findSessionById = (em: EntityManager, id: string) =>
  isUuid(id) ? em.findOne(Session, { id }) : Promise.resolve(null);

export interface SessionFilter {
  ownerId: string;
  folderId?: number;
  status?: string;
  sort: 'created_at' | 'updated_at' | 'name';
  order: 'asc' | 'desc';
  page: number;
  perPage: number;
}

const sortFields = { created_at: 'createdAt', updated_at: 'updatedAt', name: 'name' } as const;

/** One page of the owner's sessions and how many there are in all. */
export function listSessions(em: EntityManager, f: SessionFilter) {
  return em.findAndCount(
    Session,
    {
      ownerId: f.ownerId,
      ...(f.folderId !== undefined ? { folderId: f.folderId } : {}),
      ...(f.status !== undefined ? { status: f.status } : {}),
    },
    {
      orderBy: { [sortFields[f.sort]]: f.order, id: f.order },
      limit: f.perPage,
      offset: (f.page - 1) * f.perPage,
    },
  );
}

/** Per session: live participants (observers included) and the `voting` story, in one query. */
export async function sessionFactRows(em: EntityManager, sessionIds: string[]) {
  if (sessionIds.length === 0) return [];
  return rows<FactRow & { session_id: string }>(
    em,
    `select s.id as session_id, ${FACT_COLUMNS} from sessions s ${CURRENT_STORY} where s.id in (?)`,
    [sessionIds],
  );
}

const FACT_COLUMNS = `(select count(*)::int from participants p where p.session_id = s.id and p.removed_at is null)
         as participants_count,
       st.id as story_id, st.title as story_title, st.status as story_status, st.position as story_position`;
const CURRENT_STORY = `left join lateral (
       select id, title, status, position from stories
        where session_id = s.id and status = 'voting' order by status_at desc nulls last limit 1
     ) st on true`;

/**
 * The lookup's statement names the entity's columns (never `s.*`): a prepared statement whose result
 * shape changes under it (a column added by a newer replica's migration) would fail until reconnect.
 */
let sessionWithFacts: PreparedStatement | undefined;
function sessionWithFactsStatement(em: EntityManager): PreparedStatement {
  if (!sessionWithFacts) {
    const columns = em
      .getMetadata(Session)
      .props.flatMap((prop) => prop.fieldNames.map((f) => `s.${f}`))
      .join(', ');
    sessionWithFacts = {
      name: 'sessions.session-with-facts',
      text: `select ${columns}, ${FACT_COLUMNS} from sessions s ${CURRENT_STORY} where s.code = $1::bpchar`,
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
  const { participants_count, story_id, story_title, story_status, story_position, ...columns } = found;
  const facts = toFacts({
    participants_count,
    story_id,
    story_title,
    story_status,
    story_position,
  } as FactRow);
  return { session: sessionRecordOf(em, columns), facts };
}

/**
 * The session of a row as plain data, without an entity in the identity map (the lookup only shows
 * it): columns renamed to properties as the entity maps them, timestamps made dates.
 */
function sessionRecordOf(em: EntityManager, columns: Record<string, unknown>): SessionRecord {
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
  story_status: StoryStatus | null;
  story_position: number | null;
}

/** What a session record shows beside its own fields: how many are in the room, and the current story. */
export const toFacts = (r: FactRow) => ({
  participantsCount: r.participants_count,
  currentStory: r.story_id
    ? { id: r.story_id, title: r.story_title!, status: r.story_status!, position: r.story_position! }
    : null,
});
