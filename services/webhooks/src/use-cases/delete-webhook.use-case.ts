import { deleteWebhook as remove } from '../db/webhook.repository.ts';
import { WebhookNotFoundError } from '../errors.ts';
import type { WebhooksContext } from './shared/context.ts';
import { findOwnWebhook } from './shared/find-webhook.ts';

/** Deletes a webhook of the caller with its deliveries and their log. */
export async function deleteWebhook(ctx: WebhooksContext, ownerId: string, id: string) {
  const found = await findOwnWebhook(ctx, ownerId, id);
  const deleted = await remove(ctx.em, found.id, ownerId);
  if (!deleted) throw new WebhookNotFoundError();
  ctx.webhooksChanged?.();
  return deleted;
}
