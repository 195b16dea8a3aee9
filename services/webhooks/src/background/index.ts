import { startPruningTask, type BackgroundTask, type ServiceRuntime } from '@pp/runtime';
import type { Config } from '../config.ts';
import { pruneDeliveries } from '../use-cases/prune-deliveries.use-case.ts';
import type { WebhooksContext } from '../use-cases/shared/context.ts';
import { startDispatchTask } from './dispatch.task.ts';
import type { Dispatcher } from './dispatcher.ts';
import type { EventSubscriptions } from './event-subscriptions.ts';

export { eventSubscriptions, type EventSubscriptions } from './event-subscriptions.ts';

/**
 * What the webhooks unit does outside requests: it turns the public events that some webhook wants into
 * deliveries (consumers by event type, see event-subscriptions.ts), delivers them (and their retries),
 * and forgets the delivery log after 30 days.
 */
export const tasks = (
  runtime: ServiceRuntime,
  config: Config,
  context: () => WebhooksContext,
  dispatcher: Dispatcher,
  subscriptions: EventSubscriptions,
): BackgroundTask[] => [
  subscriptions.start(),
  startDispatchTask({ dispatcher, intervalMs: config.WEBHOOKS_POLL_MS, logger: runtime.logger }),
  startPruningTask({
    name: 'delivery log pruning',
    intervalMs: 3600_000,
    logger: runtime.logger,
    prune: (stopped) => pruneDeliveries(context(), stopped),
    pruned: 'old deliveries pruned',
  }),
];
