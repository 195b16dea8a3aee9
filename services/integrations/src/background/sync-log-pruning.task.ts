import type { Logger } from '@pp/logger';
import { startPeriodicTask, type BackgroundTask } from '@pp/runtime';
import { forgetOldSyncLogs } from '../use-cases/forget-old-sync-logs.use-case.ts';
import type { IntegrationsContext } from '../use-cases/shared/context.ts';

/** The sync log keeps 90 days: older logs go every hour. */
export function startSyncLogPruningTask(options: {
  context: () => IntegrationsContext;
  logger: Logger;
  intervalMs?: number;
}): BackgroundTask {
  return startPeriodicTask({
    name: 'sync log pruning',
    intervalMs: options.intervalMs ?? 3600_000,
    logger: options.logger,
    tick: async (stopped) => {
      const pruned = await forgetOldSyncLogs(options.context(), stopped);
      if (pruned > 0) options.logger.info({ pruned }, 'old sync logs pruned');
    },
  });
}
