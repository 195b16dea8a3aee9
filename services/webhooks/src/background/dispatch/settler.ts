import type { Logger } from '@pp/logger';
import type { SettledAttempt } from '../../db/dispatch.repository.ts';
import { settleAttempts } from '../../use-cases/settle-attempts.use-case.ts';
import type { WebhooksContext } from '../../use-cases/shared/context.ts';

const SETTLE_BATCH = 200;

/**
 * Writes the outcomes of attempts in batches, one batch at a time: a full batch at once, else within
 * a few milliseconds. What could not be written for a reason that may pass (the database unreachable)
 * waits for the next turn. An attempt the database refuses is left out (its delivery, still leased, is
 * attempted again once the lease runs out), never holding the others.
 */
export function createSettler(options: { context: () => WebhooksContext; logger: Logger }) {
  const settled: SettledAttempt[] = [];
  let settling: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let holding = false;

  function soon() {
    // Once stopping, flush() writes what is left itself, a few times at most: no timer outlives it.
    if (holding) return;
    if (settled.length >= SETTLE_BATCH) void settle();
    else timer ??= setTimeout(() => void settle(), 5);
  }

  function logProblems(
    refused: Array<{ attempt: SettledAttempt; error: unknown }>,
    again: number,
    why: unknown,
  ) {
    for (const { attempt, error } of refused)
      options.logger.error(
        { err: error, delivery_id: attempt.deliveryId, webhook_id: attempt.webhookId },
        'the database refuses the record of this attempt: left out of the log',
      );
    if (again > 0)
      options.logger.warn({ err: why, attempts: again }, 'could not record attempts, will retry');
  }

  function settle(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    if (settling || settled.length === 0) return settling ?? Promise.resolve();
    const batch = settled.splice(0, SETTLE_BATCH);
    settling = settleAttempts(options.context(), batch)
      .catch((err: unknown) => ({ again: batch, againBecause: err, refused: [] }))
      .then(({ again, againBecause, refused }) => {
        logProblems(refused, again.length, againBecause);
        if (again.length === 0) return;
        settled.unshift(...again);
        return new Promise((r) => setTimeout(r, 1_000));
      })
      .then(() => {
        settling = undefined;
        if (settled.length > 0) soon();
      });
    return settling;
  }

  return {
    /** An attempt's outcome, written with the next batch. */
    add(attempt: SettledAttempt) {
      settled.push(attempt);
      soon();
    },
    /** Writes no more on its own: a stop is coming, and flush() writes the rest. */
    hold() {
      holding = true;
    },
    /** Writes what is left (a few tries at most). */
    async flush() {
      for (let tries = 0; tries < 3 && (settled.length > 0 || settling); tries++) await settle();
    },
  };
}
