import type { EventHandler, EventHandlers } from '@pp/events';
import { roomEventTypes, type RoomEventType } from '../../domain/room-events.ts';
import { recordRoomEvent } from '../../use-cases/record-room-event.use-case.ts';

const handle: EventHandler<RoomEventType> = (event, em) => recordRoomEvent(em, event);

/** Records the room's events in the bus's order (one at a time), once per service whatever the replicas. */
export function roomEventsConsumer(prefix: string) {
  return {
    durable: 'sessions-room',
    filterSubject: `${prefix}.>`,
    concurrency: 1,
    // Recording is an insert that ignores an event it already has: no processed-events row needed.
    idempotent: true,
    handlers: Object.fromEntries(roomEventTypes.map((t) => [t, handle])) as EventHandlers,
  };
}
