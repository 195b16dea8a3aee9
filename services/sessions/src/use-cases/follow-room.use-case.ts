import { isUuid } from '@pp/contracts';
import { roomMessagesBetween, roomPosition } from '../db/room-event.repository.ts';
import { placeOfStreamId, type PlacedRoomMessage } from '../domain/room-events.ts';
import type { SessionsContext } from './shared/context.ts';
import { findSession } from './shared/find-session.ts';

const MAX_REPLAY = 1_000;
/**
 * Another replica's live feed can run a moment ahead of this one's record: wait that long for the
 * place of the client's last event.
 */
const RECORD_LAG_MS = 1_000;

/**
 * What a client that reconnects with Last-Event-ID missed in its room, up to a place in the bus's
 * order (from there it gets the events live), and the place of its last event (nothing when the id is
 * unknown). The id is an event's, or a place a room read gave (GET /sessions/{code}/room).
 */
async function missedRoomEvents(
  ctx: SessionsContext,
  sessionId: string,
  lastEventId: string,
  upTo: number,
): Promise<{ messages: PlacedRoomMessage[]; lastPosition: number | undefined }> {
  const place = placeOfStreamId(lastEventId);
  if (place !== undefined)
    return {
      messages: await roomMessagesBetween(ctx.em, sessionId, place, upTo, MAX_REPLAY),
      lastPosition: place,
    };
  if (!isUuid(lastEventId)) return { messages: [], lastPosition: undefined };
  const deadline = Date.now() + RECORD_LAG_MS;
  let lastPosition = await roomPosition(ctx.em, sessionId, lastEventId);
  while (lastPosition === undefined && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    lastPosition = await roomPosition(ctx.em, sessionId, lastEventId);
  }
  if (lastPosition === undefined) return { messages: [], lastPosition };
  return {
    messages: await roomMessagesBetween(ctx.em, sessionId, lastPosition, upTo, MAX_REPLAY),
    lastPosition,
  };
}

/**
 * Someone follows a session's live room (public, like the lookup): the session's id (404 for an
 * unknown code), and what a client that reconnects missed since its Last-Event-ID.
 */
export async function followRoom(ctx: SessionsContext, code: string) {
  const session = await findSession(ctx.em, code);
  return {
    sessionId: session.id,
    missedSince: (lastId: string, upTo: number) => missedRoomEvents(ctx, session.id, lastId, upTo),
  };
}
