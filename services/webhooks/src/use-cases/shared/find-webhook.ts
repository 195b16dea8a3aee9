import { isUuid } from '@pp/contracts';
import { findWebhook } from '../../db/webhook.repository.ts';
import { ownedBy } from '@pp/http';
import { WebhookNotFoundError } from '../../errors.ts';
import type { WebhooksContext } from './context.ts';

/** The caller's webhook: 404 when there is no such webhook, 403 when it is another account's. */
export async function findOwnWebhook(ctx: WebhooksContext, ownerId: string, id: string) {
  const webhook = isUuid(id) ? await findWebhook(ctx.em, id.toLowerCase()) : undefined;
  return ownedBy(webhook, ownerId, 'webhook', () => new WebhookNotFoundError());
}
