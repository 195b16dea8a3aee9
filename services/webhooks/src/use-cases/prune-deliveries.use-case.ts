import { deleteInBatches } from '@pp/db';
import { pruneDeliveries as prune } from '../db/delivery.repository.ts';
import type { WebhooksContext } from './shared/context.ts';

/** How long the delivery log is kept. */
export const DELIVERY_LOG_DAYS = 30;

/** Forgets deliveries (and their attempts) older than 30 days, then vacuums the tables it emptied. */
export async function pruneDeliveries(ctx: WebhooksContext, stopped: () => boolean): Promise<number> {
  const before = new Date(ctx.now().getTime() - DELIVERY_LOG_DAYS * 24 * 3600 * 1000);
  return deleteInBatches(ctx.em, {
    vacuum: 'deliveries, delivery_attempts',
    size: 1_000,
    deleteBatch: (size) => prune(ctx.em, before, size),
    stopped,
  });
}
