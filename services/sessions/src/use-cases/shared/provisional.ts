import type { EntityManager } from '@pp/db';
import { confirmProvisional, deleteProvisional } from '../../db/provisional-session.repository.ts';
import { announce } from './room-history.ts';
import { toSnapshot } from './session-snapshot.ts';

/**
 * Confirms a provisional session and announces it (session.created) in one commit; undefined when it
 * was discarded meanwhile.
 */
export const confirmSession = (em: EntityManager, sessionId: string) =>
  em.transactional(async (tx) => {
    const session = await confirmProvisional(tx, sessionId);
    if (session) announce(tx, 'session.created', { session: toSnapshot(session) });
    return session;
  });

/**
 * Takes provisional sessions back (one, or those left so since before a moment), with their rounds
 * and votes, and tells the other units to drop what they kept of them (session.discarded).
 */
export const discardSessions = (em: EntityManager, which: { id: string } | { before: Date }) =>
  em.transactional(async (tx) => {
    const gone = await deleteProvisional(tx, which);
    for (const s of gone) announce(tx, 'session.discarded', { session_id: s.id, session_code: s.code });
    return gone;
  });
