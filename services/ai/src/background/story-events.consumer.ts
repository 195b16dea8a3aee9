import type { EntityManager } from '@pp/db';
import type { EventHandlers } from '@pp/events';
import type { ConsumerSpec } from '@pp/runtime';
import type { AiContext } from '../use-cases/shared/context.ts';
import {
  keepPastStoryInLine,
  keepRevealedStory,
  removeFromHistory,
} from '../use-cases/keep-past-story.use-case.ts';

/** The durable an earlier version ran for all of story.* (the consumers below took over from it). */
export const RETIRED_STORY_CONSUMER = 'ai-history';

/**
 * The owners' history of revealed stories, for the estimate assistant, from the story events it
 * changes with: a reveal keeps the story as the event tells it; a reset or a deletion removes it; an
 * edit brings a kept story in line with the stories unit. One durable per type (NATS 2.9 takes one
 * subject filter per consumer), so the unit never receives the stories added or activated. The
 * handlers are idempotent by themselves and order-proof (a reveal older than a removal is not kept),
 * and an edit calls another unit, which no transaction may be open across.
 */
export function storyEventsConsumers(
  prefix: string,
  context: (em: EntityManager) => AiContext,
): ConsumerSpec[] {
  const byType: EventHandlers = {
    'story.revealed': (event, em) => keepRevealedStory(context(em), event.data),
    'story.reset': (event, em) => removeFromHistory(context(em), event.data.story.id, event.occurred_at),
    'story.deleted': (event, em) => removeFromHistory(context(em), event.data.story.id, event.occurred_at),
    'story.updated': (event, em) =>
      keepPastStoryInLine(context(em), event.data.session_id, event.data.story.id, { onlyIfKept: true }),
  };
  return Object.entries(byType).map(([type, handler]) => ({
    durable: `ai-${type.replace('.', '-')}`,
    filterSubject: `${prefix}.${type}`,
    handlers: { [type]: handler },
    idempotent: true,
    takesOverFrom: [RETIRED_STORY_CONSUMER],
  }));
}
