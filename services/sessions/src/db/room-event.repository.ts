import type { EntityManager } from '@pp/db';
import type { RoomEventType, RoomMessage } from '../domain/room-events.ts';
import { row, rows, run } from './sql.ts';

/** Where an event stands in its room's order, or undefined when the room has not recorded it. */
export async function roomPosition(em: EntityManager, sessionId: string, eventId: string) {
  const found = await row<{ seq: string }>(
    em,
    'select seq from room_events where event_id = ? and session_id = ?',
    [eventId, sessionId],
  );
  return found?.seq;
}

/** The room's messages after a position, oldest first. */
export async function roomMessagesAfter(
  em: EntityManager,
  sessionId: string,
  seq: string,
  limit: number,
): Promise<RoomMessage[]> {
  const found = await rows<{ event_id: string; type: RoomEventType; payload: Record<string, unknown> }>(
    em,
    `select event_id, type, payload from room_events where session_id = ? and seq > ? order by seq limit ?`,
    [sessionId, seq, limit],
  );
  return found.map((r) => ({ id: r.event_id, type: r.type, sessionId, data: r.payload }));
}

export const pruneRoomEvents = (em: EntityManager, before: Date) =>
  run(em, 'delete from room_events where occurred_at < ?', [before]);

/** Autovacuum may be off or behind: the pruning reclaims what it deleted itself. */
export const vacuumRoomEvents = (em: EntityManager) => run(em, 'vacuum (skip_locked) room_events');
