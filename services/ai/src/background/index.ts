import type { BackgroundTask, ConsumerSpec, ServiceRuntime } from '@pp/runtime';
import type { ContextFactory } from '../use-cases/shared/context.ts';
import { startBudgetPruningTask } from './budget-pruning.task.ts';
import { storyEventsConsumer } from './story-events.consumer.ts';

/** The owners' history of revealed stories, kept from story.* events. */
export const consumers = (runtime: ServiceRuntime, context: ContextFactory): ConsumerSpec[] => [
  storyEventsConsumer(runtime.bus.prefix, context),
];

/** The per-user model budget forgets past hours. */
export const tasks = (runtime: ServiceRuntime): BackgroundTask[] => [
  startBudgetPruningTask({ db: runtime.db, logger: runtime.logger }),
];
