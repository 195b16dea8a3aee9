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

/**
 * Records room messages once each (a second delivery of an event changes nothing), in one statement
 * and in the order given: their places in the room follow it.
 */
export async function recordRoomMessages(
  em: EntityManager,
  messages: Array<{ message: RoomMessage; occurredAt: Date }>,
): Promise<void> {
  if (messages.length === 0) return;
  await run(
    em,
    `insert into room_events (event_id, session_id, type, payload, occurred_at)
     select m.event_id, m.session_id, m.type, m.payload, m.occurred_at
       from rows from (jsonb_to_recordset(?::jsonb)
              as (event_id uuid, session_id uuid, type varchar, payload jsonb, occurred_at timestamptz))
              with ordinality as m(event_id, session_id, type, payload, occurred_at, n)
      order by m.n
     on conflict (event_id) do nothing`,
    [
      JSON.stringify(
        messages.map(({ message, occurredAt }) => ({
          event_id: message.id,
          session_id: message.sessionId,
          type: message.type,
          payload: message.data,
          occurred_at: occurredAt.toISOString(),
        })),
      ),
    ],
  );
}

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
