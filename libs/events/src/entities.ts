import { defineEntity, p } from '@mikro-orm/postgresql';

/**
 * An event waiting to be published: written in the same transaction as the change it announces, and
 * deleted once JetStream has acknowledged it.
 */
const OutboxMessageSchema = defineEntity({
  name: 'OutboxMessage',
  tableName: 'outbox',
  properties: {
    id: p.uuid().primary(),
    type: p.string(),
    payload: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().fieldName('created_at'),
    attempts: p.integer().default(0),
    lastError: p.text().nullable().fieldName('last_error'),
    /** The W3C traceparent of the request that wrote the event (null without tracing). */
    traceparent: p.text().nullable(),
  },
});
export class OutboxMessage extends OutboxMessageSchema.class {}
OutboxMessageSchema.setClass(OutboxMessage);

/** Events a consumer has handled: the unique key makes handling idempotent. */
const ProcessedEventSchema = defineEntity({
  name: 'ProcessedEvent',
  tableName: 'processed_events',
  properties: {
    consumer: p.string().primary(),
    eventId: p.uuid().primary().fieldName('event_id'),
    processedAt: p.datetime().fieldName('processed_at'),
  },
});
export class ProcessedEvent extends ProcessedEventSchema.class {}
ProcessedEventSchema.setClass(ProcessedEvent);

export const eventEntities = [OutboxMessage, ProcessedEvent];
