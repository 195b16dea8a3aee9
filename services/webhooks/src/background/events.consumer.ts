import { publicEventTypes } from '@pp/contracts';
import type { EntityManager } from '@pp/db';
import type { EventHandlers } from '@pp/events';
import type { ConsumerSpec } from '@pp/runtime';
import { recordEvent, recordEvents } from '../use-cases/record-event.use-case.ts';
import type { WebhooksContext } from '../use-cases/shared/context.ts';

/**
 * Every public event, once per unit (the durable consumer is shared by the replicas): deliveries for
 * the webhooks that want it, for the events that arrive together at once. Idempotent by itself (one delivery per webhook and event), and it may
 * call the sessions unit, which no transaction may be open across.
 */
export function eventsConsumer(
  prefix: string,
  context: (em: EntityManager) => WebhooksContext,
): ConsumerSpec {
  const handlers: EventHandlers = Object.fromEntries(
    publicEventTypes.map((type) => [
      type,
      (event: Parameters<typeof recordEvent>[1], em: EntityManager) => recordEvent(context(em), event),
    ]),
  );
  return {
    durable: 'webhooks-events',
    filterSubject: `${prefix}.>`,
    handlers,
    idempotent: true,
    concurrency: 32,
    // A busy room's burst of events (votes, above all) is recorded in one statement.
    batch: {
      handle: (events, em) => recordEvents(context(em), events as Parameters<typeof recordEvents>[1]),
    },
  };
}
