import { listDeliveries as list } from '../db/delivery.repository.ts';
import type { WebhooksContext } from './shared/context.ts';
import { findOwnWebhook } from './shared/find-webhook.ts';

/** One page of a webhook's deliveries, newest first, each with its attempts. */
export async function listDeliveries(
  ctx: WebhooksContext,
  ownerId: string,
  id: string,
  page: number,
  perPage: number,
) {
  const webhook = await findOwnWebhook(ctx, ownerId, id);
  return list(ctx.em, webhook.id, perPage, (page - 1) * perPage);
}
