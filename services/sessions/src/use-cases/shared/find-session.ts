import { sessionCodeOf } from '@pp/contracts';
import type { EntityManager } from '@pp/db';
import type { Session } from '../../db/entities/index.ts';
import { findSessionByCode, lockSessionByCode } from '../../db/session.repository.ts';
import { ForbiddenError, NotOwnerError, type RoomController } from '@pp/http';
import { participantByToken } from '../../db/participant.repository.ts';
import { hashParticipantToken } from '../../domain/participant-token.ts';
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

/**
 * The room's moderator holding this participant token, or undefined: a live participant of the
 * session whose role is `moderator` (the owner's own seat, or the one the role was handed over to).
 */
export async function moderatorOf(em: EntityManager, sessionId: string, participantToken: string) {
  const participant = await participantByToken(em, sessionId, hashParticipantToken(participantToken));
  return participant?.role === 'moderator' ? participant : undefined;
}

/**
 * The session of a path's code when the caller runs its round: its owner, or its moderator by the
 * participant token. 404 when unknown, 403 otherwise. Under the session's row lock (`locked`), a
 * change of roles made at once waits, so a moderator just replaced is refused.
 */
export async function findControlledSession(
  em: EntityManager,
  rawCode: string,
  controller: RoomController,
  options: { locked?: boolean } = {},
): Promise<Session> {
  if (controller.kind === 'owner') return findOwnedSession(em, rawCode, controller.userId, options);
  const session = await findSession(em, rawCode, options);
  if (!(await moderatorOf(em, session.id, controller.participantToken)))
    throw new ForbiddenError("Only the session's owner or its moderator can do this", 'forbidden');
  return session;
}
