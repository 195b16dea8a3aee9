import type { EntityManager } from '@pp/db';
import type { OutboundPolicy } from '@pp/outbound';
import type { SessionsClient } from '@pp/http-client';
import type { SecretBox } from '../../domain/secret-box.ts';

/** What a use case works with: a fresh entity manager, the clock, the secrets' box, the outside world. */
export interface WebhooksContext {
  em: EntityManager;
  now: () => Date;
  secrets: SecretBox;
  sessions: SessionsClient;
  /** The outbound guard's setting, for URLs checked when they are registered. */
  outbound: OutboundPolicy;
  /** Makes the dispatcher look for due deliveries now (after new ones were added). */
  deliverNow: () => void;
  /** A webhook was added, changed or removed: the unit's event consumers follow what is wanted now. */
  webhooksChanged?: () => void;
  /** Multiplies the retry schedule and the failing window (1 in production). */
  retryScale: number;
}

/** Webhooks an account may register. */
export const WEBHOOKS_PER_ACCOUNT = 250;

export type ContextFactory = () => WebhooksContext;
