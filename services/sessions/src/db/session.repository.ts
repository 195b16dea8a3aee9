import type { EntityManager } from '@pp/db';
import { Session } from './entities/index.ts';
import { rows } from './sql.ts';
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
  return rows<{
    session_id: string;
    participants_count: number;
    id: string | null;
    title: string | null;
    status: StoryStatus | null;
    position: number | null;
  }>(
    em,
    `select s.id as session_id,
       (select count(*)::int from participants p where p.session_id = s.id and p.removed_at is null)
         as participants_count,
       st.id, st.title, st.status, st.position
     from sessions s
     left join lateral (
       select id, title, status, position from stories
        where session_id = s.id and status = 'voting' order by status_at desc nulls last limit 1
     ) st on true
     where s.id in (?)`,
    [sessionIds],
  );
}
