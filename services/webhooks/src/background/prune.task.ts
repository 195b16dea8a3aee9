import { startPeriodicTask, type BackgroundTask } from '@pp/runtime';
import type { Logger } from '@pp/logger';
import { pruneDeliveries } from '../use-cases/prune-deliveries.use-case.ts';
import type { WebhooksContext } from '../use-cases/shared/context.ts';

/** The delivery log keeps 30 days: older deliveries go every hour. */
export function startPruneTask(options: {
  context: () => WebhooksContext;
  logger: Logger;
  intervalMs?: number;
}): BackgroundTask {
  return startPeriodicTask({
    name: 'delivery log pruning',
    intervalMs: options.intervalMs ?? 3600_000,
    logger: options.logger,
    tick: async (stopped) => {
      const pruned = await pruneDeliveries(options.context(), stopped);
      if (pruned > 0) options.logger.info({ pruned }, 'old deliveries pruned');
    },
  });
}
