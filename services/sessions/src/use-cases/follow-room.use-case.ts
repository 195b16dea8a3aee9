import { isUuid } from '@pp/contracts';
import { roomMessagesAfter, roomPosition } from '../db/room-event.repository.ts';
import type { RoomMessage } from '../domain/room-events.ts';
import type { SessionsContext } from './shared/context.ts';
import { findSession } from './shared/find-session.ts';

const MAX_REPLAY = 1_000;
/** The live feed can run a moment ahead of the record: wait that long for the client's last event. */
const RECORD_LAG_MS = 1_000;

/** What a client that reconnects with Last-Event-ID missed in its room (nothing when the id is unknown). */
async function missedRoomEvents(
  ctx: SessionsContext,
  sessionId: string,
  lastEventId: string,
): Promise<RoomMessage[]> {
  if (!isUuid(lastEventId)) return [];
  const deadline = Date.now() + RECORD_LAG_MS;
  let seq = await roomPosition(ctx.em, sessionId, lastEventId);
  while (seq === undefined && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    seq = await roomPosition(ctx.em, sessionId, lastEventId);
  }
  return seq === undefined ? [] : roomMessagesAfter(ctx.em, sessionId, seq, MAX_REPLAY);
}

/**
 * Someone follows a session's live room (public, like the lookup): the session's id (404 for an
 * unknown code), and what a client that reconnects missed since its Last-Event-ID.
 */
export async function followRoom(ctx: SessionsContext, code: string) {
  const session = await findSession(ctx.em, code);
  return {
    sessionId: session.id,
    missedSince: (lastId: string) => missedRoomEvents(ctx, session.id, lastId),
  };
}
