import { isUuid } from '@pp/contracts';
import { findWebhook } from '../../db/webhook.repository.ts';
import { NotWebhookOwnerError, WebhookNotFoundError } from '../../errors.ts';
import type { WebhooksContext } from './context.ts';

/** The caller's webhook: 404 when there is no such webhook, 403 when it is another account's. */
export async function findOwnWebhook(ctx: WebhooksContext, ownerId: string, id: string) {
  const webhook = isUuid(id) ? await findWebhook(ctx.em, id.toLowerCase()) : undefined;
  if (!webhook) throw new WebhookNotFoundError();
  if (webhook.ownerId !== ownerId) throw new NotWebhookOwnerError();
  return webhook;
}
