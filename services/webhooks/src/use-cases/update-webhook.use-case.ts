import { failPendingDeliveries } from '../db/delivery.repository.ts';
import { updateWebhook as update, type WebhookChanges } from '../db/webhook.repository.ts';
import { newSecret } from '../domain/signature.ts';
import { WebhookNotFoundError } from '../errors.ts';
import type { WebhooksContext } from './shared/context.ts';
import { findOwnWebhook } from './shared/find-webhook.ts';
import { checkTargetUrl, normaliseEvents } from './shared/targets.ts';

export interface WebhookUpdate {
  url?: string;
  events?: string[];
  enabled?: boolean;
  rotate_secret?: boolean;
}

/** How long the previous secret keeps signing beside a new one. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/**
 * Changes a webhook of the caller. Enabling it again forgets its failures; disabling it fails what
 * waits for delivery. A rotated secret is in the answer, and the old one signs beside it for 24 h.
 */
export async function updateWebhook(ctx: WebhooksContext, ownerId: string, id: string, input: WebhookUpdate) {
  const current = await findOwnWebhook(ctx, ownerId, id);
  const changes: WebhookChanges = {};
  if (input.url !== undefined) changes.url = await checkTargetUrl(ctx, input.url);
  if (input.events !== undefined) changes.events = normaliseEvents(input.events);
  if (input.enabled !== undefined && input.enabled !== current.enabled) {
    changes.enabled = input.enabled;
    changes.disabledReason = 'disabled by its owner';
  }
  let secret: string | undefined;
  if (input.rotate_secret) {
    secret = newSecret();
    changes.secretSealed = ctx.secrets.seal(secret, current.id);
    changes.previousUntil = new Date(ctx.now().getTime() + ROTATION_OVERLAP_MS);
  }
  const webhook = await update(ctx.em, current.id, ownerId, changes);
  if (!webhook) throw new WebhookNotFoundError();
  if (changes.enabled === false) await failPendingDeliveries(ctx.em, webhook.id);
  if (changes.events !== undefined || changes.enabled !== undefined) ctx.webhooksChanged?.();
  return { webhook, secret };
}
