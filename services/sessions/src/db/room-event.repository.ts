import { statementRows, withoutTableScans, type EntityManager, type PreparedStatement } from '@pp/db';
import type { PlacedRoomMessage, RoomEventType, RoomMessage } from '../domain/room-events.ts';
import { asDate, row, rows, run } from './sql.ts';

/** Where an event stands in the bus's order, or undefined while the record does not know it. */
export async function roomPosition(em: EntityManager, sessionId: string, eventId: string) {
  const found = await row<{ position: string }>(
    em,
    'select position from room_positions where event_id = ? and session_id = ?',
    [eventId, sessionId],
  );
  return found === undefined ? undefined : Number(found.position);
}

/** The last place in the bus's order the record has (undefined when it has none). */
export async function lastRoomPosition(em: EntityManager): Promise<number | undefined> {
  const found = await row<{ position: string | null }>(
    em,
    'select max(position) as position from room_positions',
  );
  return found?.position ? Number(found.position) : undefined;
}

/** The place of a session's last event in the record (undefined when it has none). */
export async function lastRoomPositionOf(em: EntityManager, sessionId: string): Promise<number | undefined> {
  const found = await row<{ position: string | null }>(
    em,
    'select max(position) as position from room_positions where session_id = ?',
    [sessionId],
  );
  return found?.position ? Number(found.position) : undefined;
}

/** The room's messages after a place in the bus's order and up to another, in that order. */
export async function roomMessagesBetween(
  em: EntityManager,
  sessionId: string,
  after: number,
  upTo: number,
  limit: number,
): Promise<PlacedRoomMessage[]> {
  const found = await rows<{
    event_id: string;
    type: RoomEventType;
    payload: Record<string, unknown>;
    position: string;
  }>(
    em,
    `select e.event_id, e.type, e.payload, p.position
       from room_positions p join room_events e on e.event_id = p.event_id
      where p.session_id = ? and p.position > ? and p.position <= ?
      order by p.position limit ?`,
    [sessionId, after, upTo, limit],
  );
  return found.map((r) => ({
    id: r.event_id,
    type: r.type,
    sessionId,
    data: r.payload,
    position: Number(r.position),
  }));
}

/** A published room message and its place in the bus's order. */
export type PublishedRoomMessage =
  { message: RoomMessage; occurredAt: Date; position: number } | { placeOnly: RoomMessage; position: number };

const RECORD_ROOM_MESSAGES: PreparedStatement = {
  name: 'sessions.record-room-messages',
  text: `with m as (
       select * from rows from (jsonb_to_recordset($1::jsonb)
              as (event_id uuid, session_id uuid, type varchar, payload jsonb, occurred_at timestamptz,
                  position bigint))
              with ordinality as m(event_id, session_id, type, payload, occurred_at, position, n)),
     shown as (
       insert into room_events (event_id, session_id, type, payload, occurred_at)
       select event_id, session_id, type, payload, occurred_at from m where payload is not null order by n
       on conflict (event_id) do nothing)
     insert into room_positions (event_id, session_id, position)
     select event_id, session_id, position from m
     on conflict (event_id) do nothing`,
};

/**
 * Records published room messages with their places in the bus's order, in one statement: what the
 * room shows of each, once (`placeOnly`: a message recorded with its change, whose place alone is
 * new), and its place, once however often it is delivered.
 */
export async function recordRoomMessages(em: EntityManager, messages: PublishedRoomMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await statementRows(em, RECORD_ROOM_MESSAGES, [
    JSON.stringify(
      messages.map((m) =>
        'placeOnly' in m
          ? { event_id: m.placeOnly.id, session_id: m.placeOnly.sessionId, position: m.position }
          : {
              event_id: m.message.id,
              session_id: m.message.sessionId,
              type: m.message.type,
              payload: m.message.data,
              occurred_at: m.occurredAt.toISOString(),
              position: m.position,
            },
      ),
    ),
  ]);
}

/** The room's latest messages, oldest first. */
export async function latestRoomMessages(
  em: EntityManager,
  sessionId: string,
  limit: number,
  leaveOut: readonly string[] = [],
) {
  const found = await rows<{
    event_id: string;
    type: string;
    payload: Record<string, unknown>;
    occurred_at: Date | string;
  }>(
    em,
    `select event_id, type, payload, occurred_at from room_events
      where session_id = ? and type <> all(?::text[]) order by seq desc limit ?`,
    [sessionId, `{${leaveOut.join(',')}}`, limit],
  );
  return found
    .reverse()
    .map((r) => ({ id: r.event_id, type: r.type, occurred_at: asDate(r.occurred_at), data: r.payload }));
}

export const PRUNE_ROOM_EVENTS_SQL = `with gone as (delete from room_events where occurred_at < ? returning event_id),
     places as (delete from room_positions where event_id in (select event_id from gone))
     select count(*)::int as n from gone`;

/**
 * Lets the room's history before a moment go, found through the index of its time, with the places
 * of what went; how many events went.
 */
export const pruneRoomEvents = (em: EntityManager, before: Date): Promise<number> =>
  withoutTableScans(
    em,
    async (tx) => (await row<{ n: number }>(tx, PRUNE_ROOM_EVENTS_SQL, [before]))?.n ?? 0,
  );

/** Autovacuum may be off or behind: the pruning reclaims what it deleted itself. */
export const vacuumRoomEvents = (em: EntityManager) =>
  run(em, 'vacuum (skip_locked) room_events, room_positions');
