import type { EntityManager } from '@pp/db';
import { Session } from './entities/index.ts';
import { rows } from './sql.ts';

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

/** Live participants (observers included) per session. */
export async function participantCounts(
  em: EntityManager,
  sessionIds: string[],
): Promise<Map<string, number>> {
  if (sessionIds.length === 0) return new Map();
  const found = await rows<{ session_id: string; n: number }>(
    em,
    `select session_id, count(*)::int as n from participants
      where session_id in (?) and removed_at is null group by session_id`,
    [sessionIds],
  );
  return new Map(found.map((r) => [r.session_id, r.n]));
}
