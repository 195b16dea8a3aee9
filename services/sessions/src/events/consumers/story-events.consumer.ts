import type { EventHandler, EventHandlers } from '@pp/events';
import { storyEventTypes, type StoryEventType } from '../../domain/story-events.ts';
import { applyStoryEvent, type StoryEvent } from '../../use-cases/apply-story-event.use-case.ts';
import { keepForRoom } from '../../use-cases/room-history.ts';

const handle: EventHandler<StoryEventType> = async (event, em) => {
  await applyStoryEvent(em, event as StoryEvent);
  keepForRoom(em, event);
};

/**
 * One durable consumer for the story.* events, one at a time: they come in order, and each is applied
 * (and kept for the live room) in the transaction that records it as processed.
 */
export function storyEventsConsumer(prefix: string) {
  return {
    durable: 'sessions-stories',
    filterSubject: `${prefix}.story.>`,
    concurrency: 1,
    handlers: Object.fromEntries(storyEventTypes.map((t) => [t, handle])) as EventHandlers,
  };
}
