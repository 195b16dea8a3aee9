import type { EntityManager } from '@mikro-orm/postgresql';
import { makeEvent, parseEventData, type EventData, type EventEnvelope, type EventType } from '@pp/contracts';
import { currentContext } from '@pp/logger';
import { currentTraceparent } from '@pp/telemetry';
import { OutboxMessage } from './entities.ts';

export interface OutboxEventOptions {
  source: string;
  correlationId?: string | null;
  version?: number;
}

/**
 * The envelope of an event, its data checked against the contract and the request's correlation id
 * on it. `enqueue` records it; a hot path may write the same envelope to the outbox in its own SQL.
 */
export function outboxEvent<T extends EventType>(
  type: T,
  data: EventData<T>,
  options: OutboxEventOptions,
): EventEnvelope<EventData<T>> {
  return makeEvent(type, parseEventData(type, data), {
    source: options.source,
    version: options.version,
    correlationId: options.correlationId ?? currentContext().correlationId ?? null,
  });
}

/**
 * Records an event in the outbox through the given entity manager, so it commits in the same
 * transaction as the state change it announces. The relay publishes it after the commit.
 */
export function enqueue<T extends EventType>(
  em: EntityManager,
  type: T,
  data: EventData<T>,
  options: OutboxEventOptions,
): EventEnvelope<EventData<T>> {
  const event = outboxEvent(type, data, options);
  em.persist(
    em.create(OutboxMessage, {
      id: event.id,
      type,
      payload: event as unknown as Record<string, unknown>,
      createdAt: new Date(event.occurred_at),
      attempts: 0,
      traceparent: currentTraceparent(),
    }),
  );
  return event;
}

/**
 * SQL that records events in the outbox, for a hot path that writes its whole change in one
 * statement (a data-modifying CTE): `envelopes` is a query whose single column is an event envelope
 * as jsonb, e.g. `select e from jsonb_array_elements($7::jsonb) e` over `JSON.stringify(events)` of
 * envelopes made by `outboxEvent`. `traceparent` is the SQL (a parameter) of the events' trace, given
 * `currentTraceparent()` (null without tracing), so the consumers continue the request's trace. The
 * outbox table is known here only.
 */
export const insertOutboxSql = (envelopes: string, traceparent = 'null') =>
  `insert into outbox (id, type, payload, created_at, attempts, traceparent)
     select (e->>'id')::uuid, e->>'type', e, (e->>'occurred_at')::timestamptz, 0, ${traceparent}::text
       from (${envelopes}) as events(e)`;

/** The trace a hot path's events belong to (the parameter of `insertOutboxSql`'s traceparent). */
export { currentTraceparent };
