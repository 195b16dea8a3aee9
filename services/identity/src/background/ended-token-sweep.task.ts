import type { Database } from '@pp/db';
import type { Logger } from '@pp/logger';
import { startPeriodicTask } from '@pp/runtime';
import { forgetEndedTokens } from '../use-cases/forget-ended-tokens.use-case.ts';

/** Every `intervalMs` (an hour by default), the tokens that ended over 30 days ago go. */
export const startEndedTokenSweepTask = (options: {
  db: Database;
  logger: Logger;
  now: () => Date;
  intervalMs: number;
}) =>
  startPeriodicTask({
    name: 'ended-token-sweep',
    intervalMs: options.intervalMs,
    logger: options.logger,
    tick: async (stopped) => {
      const swept = await forgetEndedTokens(options.db.fork(), options.now(), stopped);
      if (swept > 0) options.logger.info({ swept }, 'long-ended tokens forgotten');
    },
  });
