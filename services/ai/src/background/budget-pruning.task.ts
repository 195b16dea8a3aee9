import type { Database } from '@pp/db';
import type { Logger } from '@pp/logger';
import { startPeriodicTask } from '@pp/runtime';
import { pruneBudget } from '../use-cases/prune-budget.use-case.ts';

/** Every 10 minutes, the model-call counts of hours gone by go (the table stays a row per active user). */
export const startBudgetPruningTask = (options: { db: Database; logger: Logger; intervalMs?: number }) =>
  startPeriodicTask({
    name: 'budget-pruning',
    intervalMs: options.intervalMs ?? 10 * 60_000,
    logger: options.logger,
    tick: () => pruneBudget(options.db.fork()),
  });
