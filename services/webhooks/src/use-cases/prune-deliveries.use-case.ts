import { pruneDeliveries as prune, vacuumDeliveries } from '../db/delivery.repository.ts';
import type { WebhooksContext } from './shared/context.ts';

/** How long the delivery log is kept. */
export const DELIVERY_LOG_DAYS = 30;

/**
 * Forgets deliveries (and their attempts) older than 30 days, a batch at a time so no statement holds
 * many locks, then vacuums the tables it emptied (autovacuum may be off or behind).
 */
export async function pruneDeliveries(ctx: WebhooksContext, stopped: () => boolean): Promise<number> {
  const before = new Date(ctx.now().getTime() - DELIVERY_LOG_DAYS * 24 * 3600 * 1000);
  let total = 0;
  for (;;) {
    const n = await prune(ctx.em, before, 1_000);
    total += n;
    if (n < 1_000 || stopped()) break;
  }
  if (total > 0) await vacuumDeliveries(ctx.em);
  return total;
}
