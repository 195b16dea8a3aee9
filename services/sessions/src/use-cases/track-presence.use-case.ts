import { randomUUID } from 'node:crypto';
import { participantByToken } from '../db/participant.repository.ts';
import {
  addStream,
  closeStream,
  lockPresence,
  presenceSubject,
  setConnected,
} from '../db/presence.repository.ts';
import { hashParticipantToken } from '../domain/participant-token.ts';
import type { SessionsContext } from './shared/context.ts';
import { announce } from './shared/room-history.ts';

/**
 * A room stream opened with a participant's token (the web room sends its seat's): the stream is kept
 * in the shared record, and the participant, when it was not connected, is announced connected
 * (participant.presence) to every replica's streams. Under the participant's presence lock, so the
 * sweep that marks it away (on any replica) comes either before (and this announces it back) or after
 * (and finds this stream). The stream's id, or undefined for a token of nobody in this room.
 */
export async function streamOpened(
  ctx: SessionsContext,
  sessionId: string,
  token: string,
): Promise<string | undefined> {
  const participant = await participantByToken(ctx.em, sessionId, hashParticipantToken(token));
  if (!participant) return undefined;
  const streamId = randomUUID();
  const announced = await ctx.em.transactional(async (tx) => {
    const { connected } = await lockPresence(tx, participant.id, sessionId);
    await addStream(tx, { streamId, sessionId, participantId: participant.id, at: ctx.now() });
    if (connected) return false;
    await setConnected(tx, participant.id, true);
    const subject = (await presenceSubject(tx, participant.id))!;
    announce(tx, 'participant.presence', {
      session_id: sessionId,
      session_code: subject.code,
      participant: { id: participant.id, name: participant.name },
      connected: true,
    });
    return true;
  });
  if (announced) ctx.publish();
  return streamId;
}

/** The stream closed: the sweep marks its participant away once the grace has passed without another. */
export async function streamClosed(ctx: Pick<SessionsContext, 'em' | 'now'>, streamId: string) {
  await closeStream(ctx.em, streamId, ctx.now());
}
