import { startPruningTask, type BackgroundTask, type ConsumerSpec, type ServiceRuntime } from '@pp/runtime';
import { forgetOldSyncLogs } from '../use-cases/forget-old-sync-logs.use-case.ts';
import type { ContextFactory } from '../use-cases/shared/context.ts';
import { storyRevealedConsumer } from './story-revealed.consumer.ts';

/** What this unit does outside requests: writing estimates back on reveal for connections with auto_sync. */
export const consumers = (runtime: ServiceRuntime, context: ContextFactory): ConsumerSpec[] => [
  storyRevealedConsumer(runtime.bus.prefix, context),
];
/** And forgetting the sync log after 90 days, every hour. */
export const tasks = (runtime: ServiceRuntime, context: ContextFactory): BackgroundTask[] => [
  startPruningTask({
    name: 'sync log pruning',
    intervalMs: 3600_000,
    logger: runtime.logger,
    prune: (stopped) => forgetOldSyncLogs(context(runtime.db.fork()), stopped),
    pruned: 'old sync logs pruned',
  }),
];
