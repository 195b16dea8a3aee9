import type { EntityManager } from '@pp/db';
import type { RoomEventType, RoomMessage } from '../domain/room-events.ts';
import { asDate, row, rows, run } from './sql.ts';

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

/** Records a room message once (a second delivery of its event changes nothing). */
export const recordRoomMessage = (em: EntityManager, message: RoomMessage, occurredAt: Date) =>
  run(
    em,
    `insert into room_events (event_id, session_id, type, payload, occurred_at) values (?, ?, ?, ?, ?)
     on conflict (event_id) do nothing`,
    [message.id, message.sessionId, message.type, JSON.stringify(message.data), occurredAt],
  );

/** The room's latest messages, oldest first. */
export async function latestRoomMessages(em: EntityManager, sessionId: string, limit: number) {
  const found = await rows<{
    event_id: string;
    type: string;
    payload: Record<string, unknown>;
    occurred_at: Date | string;
  }>(
    em,
    'select event_id, type, payload, occurred_at from room_events where session_id = ? order by seq desc limit ?',
    [sessionId, limit],
  );
  return found
    .reverse()
    .map((r) => ({ id: r.event_id, type: r.type, occurred_at: asDate(r.occurred_at), data: r.payload }));
}

export const pruneRoomEvents = (em: EntityManager, before: Date) =>
  run(em, 'delete from room_events where occurred_at < ?', [before]);

/** Autovacuum may be off or behind: the pruning reclaims what it deleted itself. */
export const vacuumRoomEvents = (em: EntityManager) => run(em, 'vacuum (skip_locked) room_events');
