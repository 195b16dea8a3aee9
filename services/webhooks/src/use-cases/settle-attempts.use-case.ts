import { isRetryableDatabaseError } from '@pp/db';
import { settleAttempts as settle, type SettledAttempt } from '../db/dispatch.repository.ts';
import { DISABLE_AFTER_MS } from '../domain/retry-policy.ts';
import type { WebhooksContext } from './shared/context.ts';

const REASONS = {
  gone: 'The endpoint answered 410 Gone',
  failing: 'Every delivery failed for 5 days',
};

/** What a batch's record came to: the attempts to record again later, and those the database refuses. */
export interface SettleResult {
  /** Not written for a reason that may pass (the database unreachable, a deadlock): try them again. */
  again: SettledAttempt[];
  againBecause?: unknown;
  /** Rows the database will never take, each with its error: left out of the log. */
  refused: Array<{ attempt: SettledAttempt; error: unknown }>;
}

/**
 * Records what came of a batch of attempts; a webhook gone (410) or failing for 5 days is disabled.
 * One attempt the database refuses (a row it cannot take) does not hold back the others: the batch is
 * split until it is alone, and answered as refused; every other attempt is recorded.
 */
export async function settleAttempts(
  ctx: WebhooksContext,
  attempts: SettledAttempt[],
): Promise<SettleResult> {
  const cutoff = new Date(ctx.now().getTime() - DISABLE_AFTER_MS * ctx.retryScale);
  const record = async (batch: SettledAttempt[]): Promise<SettleResult> => {
    try {
      await settle(ctx.em, batch, cutoff, REASONS);
      return { again: [], refused: [] };
    } catch (error) {
      if (isRetryableDatabaseError(error)) return { again: batch, againBecause: error, refused: [] };
      if (batch.length === 1) return { again: [], refused: [{ attempt: batch[0]!, error }] };
      const half = Math.ceil(batch.length / 2);
      const [first, second] = [await record(batch.slice(0, half)), await record(batch.slice(half))];
      return {
        again: [...first.again, ...second.again],
        againBecause: first.againBecause ?? second.againBecause,
        refused: [...first.refused, ...second.refused],
      };
    }
  };
  return record(attempts);
}
