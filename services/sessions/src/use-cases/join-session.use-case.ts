import { Turns } from '@pp/async';
import { ServiceUnavailableError, ValidationError, type Identity } from '@pp/http';
import { joinParticipant } from '../db/participant.repository.ts';
import { generateParticipantToken } from '../domain/participant-token.ts';
import type { ParticipantRole } from '../domain/vote-rules.ts';
import { RoomFullError, SessionNotActiveError } from '../errors.ts';
import type { SessionsContext } from './shared/context.ts';
import { announce } from './shared/room-history.ts';
import { findSession } from './shared/find-session.ts';
import { factsOf } from './shared/session-facts.ts';

/**
 * How long a join waits for the joins of the same room ahead of it in this replica before it gives up
 * with 503, having done nothing (a retry is safe). A join's turn takes milliseconds, so this is a long
 * line (a meeting link everyone opened at the same moment on a very busy machine). With the longest
 * wait for the room's row after it (LOCK_WAIT_AT_MOST_MS, 5 s), a join answers before the gateway's
 * upstream timeout (15 s), which would leave the client unsure whether it joined.
 */
export const JOIN_WAIT_MS = 8_000;

/**
 * The lines the joins of each room take turns in, in one replica. Joins of a room count its seats
 * under the session's row lock one after the other anyway; waiting for that lock, each would hold a
 * pooled connection, and a room everyone opens at once would take the whole pool (other rooms' votes
 * and reads waiting behind it, and the last joins giving up on the pool's wait). In line, a room's
 * joins hold one connection of the replica at a time.
 */
export const joinLines = () =>
  new Turns({
    ms: JOIN_WAIT_MS,
    late: () => new ServiceUnavailableError('Many are joining this room at once, try again shortly'),
  });

export interface JoinInput {
  name?: string;
  role?: 'participant' | 'observer';
}

/**
 * Someone joins the room of an active session. A signed-in user joins under the profile's name (the
 * owner as moderator) and joining again returns the same participant with a fresh token; anyone
 * else needs a name. The token is in this answer only. A full room takes no one new (409 room_full).
 * Joins of one room take turns in the replica (see joinLines).
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

  const join = () =>
    ctx.em.transactional(async (tx) => {
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
  const { participant, joined } = await ctx.joins.run(session.id, join);
  if (joined) ctx.publish();
  return { session, facts: await factsOf(ctx.em, session), participant: { ...participant, token } };
}
