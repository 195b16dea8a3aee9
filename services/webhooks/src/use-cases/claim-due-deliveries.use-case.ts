import { claimDueDeliveries as claim } from '../db/dispatch.repository.ts';
import type { WebhooksContext } from './shared/context.ts';

/**
 * Due deliveries for this replica to attempt, leased for `leaseMs` (longer than an attempt may take),
 * none of the webhooks it cannot take more of right now.
 */
export const claimDueDeliveries = (
  ctx: WebhooksContext,
  limit: number,
  busyWebhooks: string[],
  leaseMs: number,
) => claim(ctx.em, limit, busyWebhooks, leaseMs);
