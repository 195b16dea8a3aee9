import type { EntityManager } from '@pp/db';
import type { Session } from '../../db/entities/index.ts';
import { findSessionByCode } from '../../db/session.repository.ts';
import { normalizeCode } from '../../domain/session-code.ts';
import { NotOwnerError } from '@pp/http';
import { SessionNotFoundError } from '../../errors.ts';

/** The session of a path's code (any case), or a 404. */
export async function findSession(em: EntityManager, rawCode: string): Promise<Session> {
  const code = normalizeCode(rawCode);
  const session = code ? await findSessionByCode(em, code) : null;
  if (!session) throw new SessionNotFoundError();
  return session;
}

/** The session of a path's code when the caller owns it: 404 when unknown, 403 when someone else's. */
export async function findOwnedSession(em: EntityManager, rawCode: string, userId: string): Promise<Session> {
  const session = await findSession(em, rawCode);
  if (session.ownerId !== userId) throw new NotOwnerError('session');
  return session;
}
