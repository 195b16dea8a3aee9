import type { BackgroundTask, ConsumerSpec, ServiceRuntime } from '@pp/runtime';
import type { ContextFactory } from '../use-cases/shared/context.ts';
import { storyRevealedConsumer } from './story-revealed.consumer.ts';
import { startSyncLogPruningTask } from './sync-log-pruning.task.ts';

/** What this unit does outside requests: writing estimates back on reveal for connections with auto_sync. */
export const consumers = (runtime: ServiceRuntime, context: ContextFactory): ConsumerSpec[] => [
  storyRevealedConsumer(runtime.bus.prefix, context),
];
/** And forgetting the sync log after 90 days. */
export const tasks = (runtime: ServiceRuntime, context: ContextFactory): BackgroundTask[] => [
  startSyncLogPruningTask({ context: () => context(runtime.db.fork()), logger: runtime.logger }),
];
