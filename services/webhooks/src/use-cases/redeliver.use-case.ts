import { isUuid } from '@pp/contracts';
import { findDelivery, requestRedelivery } from '../db/delivery.repository.ts';
import { DeliveryInFlightError, DeliveryNotFoundError, WebhookDisabledError } from '../errors.ts';
import type { WebhooksContext } from './shared/context.ts';
import { findOwnWebhook, notQueued } from './shared/find-webhook.ts';

/**
 * One more attempt of a delivery, now, with the same webhook-id: a pending one is brought forward, a
 * settled one (succeeded or failed for good) is sent once more.
 */
export async function redeliver(ctx: WebhooksContext, ownerId: string, id: string, deliveryId: string) {
  const webhook = await findOwnWebhook(ctx, ownerId, id);
  const found = isUuid(deliveryId)
    ? await findDelivery(ctx.em, webhook.id, deliveryId.toLowerCase())
    : undefined;
  if (!found) throw new DeliveryNotFoundError();
  if (!webhook.enabled) throw new WebhookDisabledError();
  const requested = await requestRedelivery(ctx.em, webhook.id, found.id);
  if (!requested) throw await notQueued(ctx, webhook.id, new DeliveryInFlightError());
  ctx.deliverNow();
  return requested;
}
