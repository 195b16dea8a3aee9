import { isUuid } from '../db/session.repository.ts';
import { roomMessagesAfter, roomPosition } from '../db/room-event.repository.ts';
import type { RoomMessage } from '../domain/room-events.ts';
import type { SessionsContext } from './context.ts';

const MAX_REPLAY = 1_000;
/** The live feed can run a moment ahead of the record: wait that long for the client's last event. */
const RECORD_LAG_MS = 1_000;

/** What a client that reconnects with Last-Event-ID missed in its room (nothing when the id is unknown). */
export async function replayRoomEvents(
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
