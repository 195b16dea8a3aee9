import type { EntityManager } from '@pp/db';
import type { RoomEventType, RoomMessage } from '../domain/room-events.ts';
import { row, rows, run } from './sql.ts';

export const recordRoomMessage = (em: EntityManager, m: RoomMessage, occurredAt: Date) =>
  run(
    em,
    `insert into room_events (event_id, session_id, type, payload, occurred_at) values (?, ?, ?, ?::jsonb, ?)
     on conflict (event_id) do nothing`,
    [m.id, m.sessionId, m.type, JSON.stringify(m.data), occurredAt],
  );

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
