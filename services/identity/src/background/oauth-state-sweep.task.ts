import type { Database } from '@pp/db';
import type { Logger } from '@pp/logger';
import { startPeriodicTask } from '@pp/runtime';
import { sweepOAuthStates } from '../use-cases/sweep-oauth-states.use-case.ts';

/** Every `intervalMs` (5 minutes by default), the sign-on states that expired go. */
export const startOAuthStateSweepTask = (options: {
  db: Database;
  logger: Logger;
  now: () => Date;
  intervalMs: number;
}) =>
  startPeriodicTask({
    name: 'oauth-state-sweep',
    intervalMs: options.intervalMs,
    logger: options.logger,
    tick: async (stopped) => {
      const swept = await sweepOAuthStates(options.db.fork(), options.now(), stopped);
      if (swept > 0) options.logger.debug({ swept }, 'expired sign-on states swept');
    },
  });
