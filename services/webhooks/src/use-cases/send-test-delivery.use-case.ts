import { randomUUID } from 'node:crypto';
import { addTestDelivery } from '../db/delivery.repository.ts';
import { payloadOf, TEST_EVENT } from '../domain/payload.ts';
import { WebhookDisabledError } from '../errors.ts';
import type { WebhooksContext } from './shared/context.ts';
import { findOwnWebhook, notQueued } from './shared/find-webhook.ts';

/** Queues a `webhook.test` delivery to the webhook (one attempt, at once); its result is in the delivery log. */
export async function sendTestDelivery(ctx: WebhooksContext, ownerId: string, id: string) {
  const webhook = await findOwnWebhook(ctx, ownerId, id);
  if (!webhook.enabled) throw new WebhookDisabledError();
  const payload = payloadOf(TEST_EVENT, ctx.now().toISOString(), {
    webhook_id: webhook.id,
    message: 'A test delivery: this endpoint receives the events its webhook subscribes to.',
  });
  const delivery = await addTestDelivery(ctx.em, { id: randomUUID(), webhookId: webhook.id, payload });
  if (!delivery) throw await notQueued(ctx, webhook.id);
  ctx.deliverNow();
  return delivery;
}
