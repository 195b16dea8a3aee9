import { sessionCodeOf } from '@pp/contracts';
import type { EntityManager } from '@pp/db';
import type { Session } from '../../db/entities/index.ts';
import { findSessionByCode, lockSessionByCode } from '../../db/session.repository.ts';
import { NotOwnerError } from '@pp/http';
import { SessionNotFoundError } from '../../errors.ts';

/**
 * The session of a path's code (any case), or a 404. `locked`: under its row lock, inside a
 * transaction, so that changes of it made at once take turns.
 */
export async function findSession(
  em: EntityManager,
  rawCode: string,
  options: { locked?: boolean } = {},
): Promise<Session> {
  const code = sessionCodeOf(rawCode);
  const find = options.locked ? lockSessionByCode : findSessionByCode;
  const session = code ? await find(em, code) : null;
  if (!session) throw new SessionNotFoundError();
  return session;
}

/** The session of a path's code when the caller owns it: 404 when unknown, 403 when someone else's. */
export async function findOwnedSession(
  em: EntityManager,
  rawCode: string,
  userId: string,
  options: { locked?: boolean } = {},
): Promise<Session> {
  const session = await findSession(em, rawCode, options);
  if (session.ownerId !== userId) throw new NotOwnerError('session');
  return session;
}
