import type { Database } from '@pp/db';
import type { Logger } from '@pp/logger';
import { startPeriodicTask } from '@pp/runtime';
import { forgetOldRemovals } from '../use-cases/forget-old-removals.use-case.ts';

/** Every hour, the history's removals older than any event that could still come go. */
export const startRemovalsPruningTask = (options: { db: Database; logger: Logger; intervalMs?: number }) =>
  startPeriodicTask({
    name: 'removals-pruning',
    intervalMs: options.intervalMs ?? 60 * 60_000,
    logger: options.logger,
    tick: () => forgetOldRemovals(options.db.fork()),
  });
