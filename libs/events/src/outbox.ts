import type { EntityManager } from '@mikro-orm/postgresql';
import { makeEvent, parseEventData, type EventData, type EventEnvelope, type EventType } from '@pp/contracts';
import { currentContext } from '@pp/logger';
import { OutboxMessage } from './entities.ts';

/**
 * Records an event in the outbox through the given entity manager, so it commits in the same
 * transaction as the state change it announces. The relay publishes it after the commit.
 */
export function enqueue<T extends EventType>(
  em: EntityManager,
  type: T,
  data: EventData<T>,
  options: { source: string; correlationId?: string | null; version?: number },
): EventEnvelope<EventData<T>> {
  const parsed = parseEventData(type, data);
  const event = makeEvent(type, parsed, {
    source: options.source,
    version: options.version,
    correlationId: options.correlationId ?? currentContext().correlationId ?? null,
  });
  em.persist(
    em.create(OutboxMessage, {
      id: event.id,
      type,
      payload: event as unknown as Record<string, unknown>,
      createdAt: new Date(event.occurred_at),
      attempts: 0,
    }),
  );
  return event;
}
