import type { BackgroundTask, ConsumerSpec, ServiceRuntime } from '@pp/runtime';
import type { ContextFactory } from '../use-cases/shared/context.ts';
import { startBudgetPruningTask } from './budget-pruning.task.ts';
import { startRemovalsPruningTask } from './removals-pruning.task.ts';
import { storyEventsConsumers } from './story-events.consumer.ts';

export { RETIRED_STORY_CONSUMER } from './story-events.consumer.ts';

/** The owners' history of revealed stories, kept from the story events it changes with. */
export const consumers = (runtime: ServiceRuntime, context: ContextFactory): ConsumerSpec[] =>
  storyEventsConsumers(runtime.bus.prefix, context);

/** The per-user model budget forgets past hours; the history forgets removals no event can precede any more. */
export const tasks = (runtime: ServiceRuntime): BackgroundTask[] => [
  startBudgetPruningTask({ db: runtime.db, logger: runtime.logger }),
  startRemovalsPruningTask({ db: runtime.db, logger: runtime.logger }),
];
