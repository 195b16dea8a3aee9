import { inBatches } from '@pp/events';
import { storyEventTypes } from '../domain/story-events.ts';
import { keepDeliveredForRoom } from '../use-cases/shared/room-history.ts';

/**
 * The round itself changes by the stories unit's commands; its events are what the live room shows.
 * One durable consumer for the story.* events, one batch at a time: they come in order, and each is
 * kept for the live room once (idempotent by the event id, so no processed-events row is needed); the
 * events that arrive together are written in one statement, in their order.
 */
export function storyEventsConsumer(prefix: string) {
  return {
    durable: 'sessions-stories',
    filterSubject: `${prefix}.story.>`,
    concurrency: 1,
    idempotent: true,
    ...inBatches(storyEventTypes, (events, em) => keepDeliveredForRoom(em, events)),
  };
}
