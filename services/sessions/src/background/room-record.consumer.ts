import { inBatches } from '@pp/events';
import { roomEventTypes } from '../domain/room-events.ts';
import { keepPublishedForRoom } from '../use-cases/shared/room-history.ts';

/** The durable name of the room's recorder: a reconnecting client's replay waits until it has caught up. */
export const ROOM_RECORDER = 'sessions-room-record';

/**
 * The round itself changes by the stories unit's commands; the events are what the live room shows.
 * One durable consumer of the whole bus records every event the room shows with its place in the
 * stream (the order of the live feed): the stories unit's events whole, this unit's own only their
 * places (they are kept with their changes). Idempotent by the event id (no processed-events row);
 * the events that arrive together are written in one statement.
 */
export function roomRecordConsumer(prefix: string) {
  return {
    durable: ROOM_RECORDER,
    filterSubject: `${prefix}.>`,
    concurrency: 1,
    idempotent: true,
    ...inBatches(roomEventTypes, (events, em, deliveries) => keepPublishedForRoom(em, events, deliveries)),
  };
}
