import type { EntityManager } from '@pp/db';
import { sessionRecordOf } from './session.repository.ts';
import { rows } from './sql.ts';

/**
 * A session made from a template is provisional until all its stories are in: confirmed then, or
 * discarded when they cannot be added (or when it was left so for too long: a crash half-way).
 */

/** Confirms a provisional session; undefined when it is not there any more (discarded meanwhile). */
export async function confirmProvisional(tx: EntityManager, sessionId: string) {
  const [found] = await rows<Record<string, unknown>>(
    tx,
    'update sessions set provisional_since = null where id = ? and provisional_since is not null returning *',
    [sessionId],
  );
  return found ? sessionRecordOf(tx, found) : undefined;
}

/** Deletes provisional sessions, one by id or every one older than a moment; their ids and codes. */
export function deleteProvisional(tx: EntityManager, which: { id: string } | { before: Date }) {
  const [condition, value] = 'id' in which ? ['id = ?', which.id] : ['provisional_since < ?', which.before];
  return rows<{ id: string; code: string }>(
    tx,
    `delete from sessions where provisional_since is not null and ${condition} returning id, code`,
    [value],
  );
}
