import type { WebhooksContext } from './shared/context.ts';
import { findOwnWebhook } from './shared/find-webhook.ts';

export const getWebhook = (ctx: WebhooksContext, ownerId: string, id: string) =>
  findOwnWebhook(ctx, ownerId, id);
