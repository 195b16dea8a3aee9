import type { EntityManager } from '@pp/db';
import type { EventHandlers } from '@pp/events';
import type { AiContext } from '../use-cases/shared/context.ts';
import { keepPastStoryInLine } from '../use-cases/keep-past-story.use-case.ts';

/**
 * story.*: the owners' history of revealed stories, for the estimate assistant. A reveal keeps the
 * story; a reset, a deletion or an edit brings a kept story in line with the stories unit.
 */
export function storyEventsConsumer(prefix: string, context: (em: EntityManager) => AiContext) {
  const handlers: EventHandlers = {
    'story.revealed': (event, em) =>
      keepPastStoryInLine(context(em), event.data.session_id, event.data.story.id),
    'story.reset': (event, em) =>
      keepPastStoryInLine(context(em), event.data.session_id, event.data.story.id, { onlyIfKept: true }),
    'story.deleted': (event, em) =>
      keepPastStoryInLine(context(em), event.data.session_id, event.data.story.id, { onlyIfKept: true }),
    'story.updated': (event, em) =>
      keepPastStoryInLine(context(em), event.data.session_id, event.data.story.id, { onlyIfKept: true }),
  };
  // Idempotent by itself (it states the story as the stories unit has it now), and it calls other
  // units, which no transaction may be open across.
  return { durable: 'ai-history', filterSubject: `${prefix}.story.>`, handlers, idempotent: true };
}
