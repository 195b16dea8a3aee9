import { isUuid } from '@pp/contracts';
import type { EntityManager } from '@pp/db';
import type { SessionSnapshot } from '@pp/contracts';
import { SessionView } from './entities/index.ts';

/**
 * Keeps a snapshot in the read model unless a newer one is there already (events may arrive out of
 * order, and the internal lookup may race an event).
 */
export async function saveSnapshot(em: EntityManager, s: SessionSnapshot): Promise<void> {
  await em.getConnection().execute(
    `insert into sessions (id, code, owner_id, name, status, voting_system, deck, record_vote_names, auto_reveal,
       voteby_enabled, vote_by_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?)
     on conflict (id) do update set code = excluded.code, owner_id = excluded.owner_id, name = excluded.name,
       status = excluded.status, voting_system = excluded.voting_system, deck = excluded.deck,
       record_vote_names = excluded.record_vote_names, auto_reveal = excluded.auto_reveal,
       voteby_enabled = excluded.voteby_enabled, vote_by_at = excluded.vote_by_at, updated_at = excluded.updated_at
     where sessions.updated_at <= excluded.updated_at`,
    [
      s.id,
      s.code.toUpperCase(),
      s.owner_id,
      s.name,
      s.status,
      s.voting_system,
      JSON.stringify(s.deck),
      s.record_vote_names,
      s.auto_reveal,
      s.voteby_enabled,
      s.vote_by_at,
      s.updated_at,
    ],
    'run',
    em.getTransactionContext(),
  );
}

/** A session of the read model by its id or its (case-insensitive) code. */
export function findSession(em: EntityManager, codeOrId: string): Promise<SessionView | null> {
  if (isUuid(codeOrId)) return em.findOne(SessionView, { id: codeOrId.toLowerCase() }, { refresh: true });
  return em.findOne(
    SessionView,
    { code: codeOrId.toUpperCase() },
    { orderBy: { updatedAt: 'desc' }, refresh: true },
  );
}

/** A session that never came to be (discarded by the sessions unit): its stories and its record go. */
export async function forgetSession(em: EntityManager, sessionId: string): Promise<void> {
  await em
    .getConnection()
    .execute(
      `with gone as (delete from stories where session_id = ?) delete from sessions where id = ?`,
      [sessionId, sessionId],
      'run',
      em.getTransactionContext(),
    );
}
