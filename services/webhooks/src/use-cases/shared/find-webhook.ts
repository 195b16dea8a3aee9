import { isUuid } from '@pp/contracts';
import { findWebhook } from '../../db/webhook.repository.ts';
import { ownedBy } from '@pp/http';
import { WebhookDisabledError, WebhookNotFoundError } from '../../errors.ts';
import type { WebhooksContext } from './context.ts';

/** The caller's webhook: 404 when there is no such webhook, 403 when it is another account's. */
export async function findOwnWebhook(ctx: WebhooksContext, ownerId: string, id: string) {
  const webhook = isUuid(id) ? await findWebhook(ctx.em, id.toLowerCase()) : undefined;
  return ownedBy(webhook, ownerId, 'webhook', () => new WebhookNotFoundError());
}

/**
 * Why a delivery of a webhook read enabled a moment ago was not queued: it has been deleted or disabled
 * since (the statement that queues checks it again), or else `otherwise`.
 */
export async function notQueued(ctx: WebhooksContext, id: string, otherwise?: Error): Promise<Error> {
  const webhook = await findWebhook(ctx.em, id);
  if (!webhook) return new WebhookNotFoundError();
  return webhook.enabled && otherwise ? otherwise : new WebhookDisabledError();
}
