import { isUuid } from '@pp/contracts';
import { findOwnedWebhook } from '../../db/webhook.repository.ts';
import { WebhookNotFoundError } from '../../errors.ts';
import type { WebhooksContext } from './context.ts';

/** The caller's webhook; another account's (or no such id) is the same 404. */
export async function findOwnWebhook(ctx: WebhooksContext, ownerId: string, id: string) {
  const webhook = isUuid(id) ? await findOwnedWebhook(ctx.em, id.toLowerCase(), ownerId) : undefined;
  if (!webhook) throw new WebhookNotFoundError();
  return webhook;
}
