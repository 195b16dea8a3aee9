import type { Database, EntityManager } from '@pp/db';
import type { Logger } from '@pp/logger';
import { startPeriodicTask } from '@pp/runtime';

/** A sweep of rows past their time: how many went. */
type Sweep = (em: EntityManager, now: Date, stopped: () => boolean) => Promise<number>;

/** Every `intervalMs`, `sweep` on an entity manager of its own; what went is logged. */
export const startSweepTask = (options: {
  name: string;
  sweep: Sweep;
  /** What the log says went. */
  swept: string;
  db: Database;
  logger: Logger;
  now: () => Date;
  intervalMs: number;
}) =>
  startPeriodicTask({
    name: options.name,
    intervalMs: options.intervalMs,
    logger: options.logger,
    tick: async (stopped) => {
      const swept = await options.sweep(options.db.fork(), options.now(), stopped);
      if (swept > 0) options.logger.info({ swept }, options.swept);
    },
  });
