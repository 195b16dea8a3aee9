import type { EventData, EventEnvelope, EventType } from '@pp/contracts';
import type { EntityManager } from '@pp/db';
import { enqueue } from '@pp/events';
import { RoomEvent } from '../../db/entities/index.ts';
import {
  lastRoomPosition,
  pruneRoomEvents,
  recordRoomMessages,
  vacuumRoomEvents,
  type PublishedRoomMessage,
} from '../../db/room-event.repository.ts';
import { toRoomMessage, type RoomMessage } from '../../domain/room-events.ts';
import { SOURCE } from './context.ts';

/**
 * Keeps what the live room shows of an event, written with the change itself (the event's own
 * transaction, or the one that applies another service's event), so a reconnecting client can catch
 * up with everything that was published. Nothing is kept of events the room does not show.
 */
export function keepForRoom(em: EntityManager, event: EventEnvelope): void {
  const message = toRoomMessage(event);
  if (!message) return;
  em.persist(
    em.create(RoomEvent, {
      eventId: message.id,
      sessionId: message.sessionId,
      type: message.type,
      payload: message.data,
      occurredAt: new Date(event.occurred_at),
    }),
  );
}

/**
 * The room's events as they are published (every unit's, this one's included), with their places in
 * the bus's order: what the room shows of another unit's event is kept once, however often it comes
 * (this unit's own are kept with their change already), and every event's place is learnt. A burst in
 * one statement.
 */
export async function keepPublishedForRoom(
  em: EntityManager,
  published: Array<{ event: EventEnvelope; message: RoomMessage; position: number }>,
): Promise<void> {
  await recordRoomMessages(
    em,
    published.map(({ event, message, position }): PublishedRoomMessage =>
      event.source === SOURCE
        ? { placeOnly: message, position }
        : { message, occurredAt: new Date(event.occurred_at), position },
    ),
  );
}

/** Where the room's record stands in the bus's order: the place of the last event it has. */
export const lastRecordedForRoom = (em: EntityManager) => lastRoomPosition(em);

/** An event of this service: to the outbox and, when the room shows it, to the room's history. */
export function announce<T extends EventType>(em: EntityManager, type: T, data: EventData<T>) {
  const event = enqueue(em, type, data, { source: SOURCE });
  keepForRoom(em, event);
  return event;
}

/** Catching up is for short drops: older room history is let go (and its space reclaimed). */
export async function forgetOldRoomEvents(em: EntityManager, now: Date, keepMs: number): Promise<number> {
  const forgotten = await pruneRoomEvents(em, new Date(now.getTime() - keepMs));
  if (forgotten > 0) await vacuumRoomEvents(em);
  return forgotten;
}
