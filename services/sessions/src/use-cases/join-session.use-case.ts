import { ValidationError, type Identity } from '@pp/http';
import { joinParticipant } from '../db/participant.repository.ts';
import { generateParticipantToken } from '../domain/participant-token.ts';
import type { ParticipantRole } from '../domain/vote-rules.ts';
import { RoomFullError, SessionNotActiveError } from '../errors.ts';
import type { SessionsContext } from './shared/context.ts';
import { announce } from './shared/room-history.ts';
import { findSession } from './shared/find-session.ts';
import { factsOf } from './shared/session-facts.ts';

export interface JoinInput {
  name?: string;
  role?: 'participant' | 'observer';
}

/**
 * Someone joins the room of an active session. A signed-in user joins under the profile's name (the
 * owner as moderator) and joining again returns the same participant with a fresh token; anyone
 * else needs a name. The token is in this answer only. A full room takes no one new (409 room_full).
 */
export async function joinSession(
  ctx: SessionsContext,
  code: string,
  identity: Identity | undefined,
  input: JoinInput,
) {
  const session = await findSession(ctx.em, code);
  if (session.status !== 'active') throw new SessionNotActiveError();
  const user = identity?.kind === 'user' ? identity : undefined;
  const name = (user ? (user.name ?? input.name ?? user.email) : input.name)?.trim();
  if (!name) throw new ValidationError({ name: ['is required when joining without signing in'] });
  const role: ParticipantRole =
    user?.sub === session.ownerId ? 'moderator' : input.role === 'observer' ? 'observer' : 'participant';
  const { token, hash } = generateParticipantToken(ctx.participantTokenKey, session.code);

  const { participant, joined } = await ctx.em.transactional(async (tx) => {
    const saved = await joinParticipant(
      tx,
      { sessionId: session.id, userId: user?.sub ?? null, name, role, tokenHash: hash, at: ctx.now() },
      ctx.roomMaxParticipants,
    );
    if (!saved) throw new RoomFullError(ctx.roomMaxParticipants);
    if (saved.joined) {
      const { id, name: joinedName } = saved.participant;
      announce(tx, 'participant.joined', {
        session_id: session.id,
        session_code: session.code,
        participant: { id, name: joinedName, role: saved.participant.role as ParticipantRole },
      });
    }
    return saved;
  });
  if (joined) ctx.publish();
  return { session, facts: await factsOf(ctx.em, session), participant: { ...participant, token } };
}
