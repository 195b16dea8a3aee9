import type { EntityManager } from '@pp/db';
import { query } from './sql.ts';

export interface SessionOwner {
  sessionId: string;
  code: string;
  ownerId: string;
}

/** Remembers who owns a session (a session's owner and code never change, so the last word is as good as any). */
export async function keepSessionOwner(em: EntityManager, s: SessionOwner): Promise<void> {
  await query(
    em,
    'keep_owner',
    `insert into session_owners (session_id, code, owner_id) values ($1, $2, $3)
     on conflict (session_id) do update set code = excluded.code, owner_id = excluded.owner_id
     where session_owners.code <> excluded.code or session_owners.owner_id <> excluded.owner_id`,
    [s.sessionId, s.code.toUpperCase(), s.ownerId],
  );
}

interface Row {
  session_id: string;
  code: string;
  owner_id: string;
}
const owner = (r: Row): SessionOwner => ({ sessionId: r.session_id, code: r.code, ownerId: r.owner_id });

export async function sessionOwnerById(em: EntityManager, sessionId: string) {
  const rows = await query<Row>(em, 'owner_by_id', 'select * from session_owners where session_id = $1', [
    sessionId,
  ]);
  return rows[0] && owner(rows[0]);
}

export async function sessionOwnerByCode(em: EntityManager, code: string) {
  const rows = await query<Row>(em, 'owner_by_code', 'select * from session_owners where code = $1', [
    code.toUpperCase(),
  ]);
  return rows[0] && owner(rows[0]);
}
