import type { Database } from '@pp/db';
import type { Logger } from '@pp/logger';
import { startPeriodicTask } from '@pp/runtime';
import { forgetOldStoryHistory } from '../use-cases/forget-story-history.use-case.ts';

/** Every 10 minutes, the story history forgets what is older than a day. */
export const startStoryHistoryPruningTask = (options: {
  db: Database;
  logger: Logger;
  now: () => Date;
  intervalMs?: number;
}) =>
  startPeriodicTask({
    name: 'story-history-pruning',
    intervalMs: options.intervalMs ?? 10 * 60_000,
    logger: options.logger,
    tick: async () => {
      await forgetOldStoryHistory(options.db.fork(), options.now());
    },
  });
