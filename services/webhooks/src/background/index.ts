import type { EntityManager } from '@pp/db';
import type { BackgroundTask, ConsumerSpec, ServiceRuntime } from '@pp/runtime';
import type { Config } from '../config.ts';
import type { WebhooksContext } from '../use-cases/shared/context.ts';
import { startDispatchTask } from './dispatch.task.ts';
import type { Dispatcher } from './dispatcher.ts';
import { eventsConsumer } from './events.consumer.ts';
import { startPruneTask } from './prune.task.ts';

/** What the webhooks unit does outside requests: it turns public events into deliveries... */
export const consumers = (
  runtime: ServiceRuntime,
  context: (em?: EntityManager) => WebhooksContext,
): ConsumerSpec[] => [eventsConsumer(runtime.bus.prefix, context)];

/** ...delivers them (and their retries), and forgets the delivery log after 30 days. */
export const tasks = (
  runtime: ServiceRuntime,
  config: Config,
  context: () => WebhooksContext,
  dispatcher: Dispatcher,
): BackgroundTask[] => [
  startDispatchTask({ dispatcher, intervalMs: config.WEBHOOKS_POLL_MS, logger: runtime.logger }),
  startPruneTask({ context, logger: runtime.logger }),
];
