import { settleAttempts as settle, type SettledAttempt } from '../db/dispatch.repository.ts';
import { DISABLE_AFTER_MS } from '../domain/retry-policy.ts';
import type { WebhooksContext } from './shared/context.ts';

const REASONS = {
  gone: 'The endpoint answered 410 Gone',
  failing: 'Every delivery failed for 5 days',
};

/** Records what came of a batch of attempts; a webhook gone (410) or failing for 5 days is disabled. */
export async function settleAttempts(ctx: WebhooksContext, attempts: SettledAttempt[]): Promise<void> {
  const cutoff = new Date(ctx.now().getTime() - DISABLE_AFTER_MS * ctx.retryScale);
  await settle(ctx.em, attempts, cutoff, REASONS);
}
