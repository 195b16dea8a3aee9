import { listOwnedWebhooks } from '../db/webhook.repository.ts';
import type { WebhooksContext } from './shared/context.ts';

/** One page of the caller's webhooks, oldest first. */
export const listWebhooks = (ctx: WebhooksContext, ownerId: string, page: number, perPage: number) =>
  listOwnedWebhooks(ctx.em, ownerId, perPage, (page - 1) * perPage);
