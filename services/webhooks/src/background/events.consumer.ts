import { publicEventTypes } from '@pp/contracts';
import type { EntityManager } from '@pp/db';
import { inBatches } from '@pp/events';
import type { ConsumerSpec } from '@pp/runtime';
import { recordEvents } from '../use-cases/record-event.use-case.ts';
import type { WebhooksContext } from '../use-cases/shared/context.ts';

/**
 * Every public event, once per unit (the durable consumer is shared by the replicas): deliveries for
 * the webhooks that want it; a burst of events (a busy room's votes, above all) is recorded in one
 * statement. Idempotent by itself (one delivery per webhook and event), and it may call the sessions
 * unit, which no transaction may be open across.
 */
export function eventsConsumer(
  prefix: string,
  context: (em: EntityManager) => WebhooksContext,
): ConsumerSpec {
  return {
    durable: 'webhooks-events',
    filterSubject: `${prefix}.>`,
    idempotent: true,
    concurrency: 32,
    ...inBatches(publicEventTypes, (events, em) =>
      recordEvents(context(em), events as Parameters<typeof recordEvents>[1]),
    ),
  };
}
