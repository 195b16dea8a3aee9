import type { AttemptRecord, DeliveryRecord } from '../db/delivery.repository.ts';
import type { WebhookRecord } from '../db/webhook.repository.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A webhook as its owner sees it: never its secret (but right after it was made or rotated). */
export const webhookView = (w: WebhookRecord, now: Date) => ({
  id: w.id,
  url: w.url,
  kind: w.kind,
  events: w.events,
  session_code: w.sessionCode,
  enabled: w.enabled,
  disabled_reason: w.enabled ? null : w.disabledReason,
  disabled_at: w.enabled ? null : iso(w.disabledAt),
  failing_since: iso(w.failingSince),
  previous_secret_expires_at:
    w.previousSecretUntil && w.previousSecretUntil > now ? iso(w.previousSecretUntil) : null,
  created_at: w.createdAt.toISOString(),
  updated_at: w.updatedAt.toISOString(),
});

export const withSecret = (view: ReturnType<typeof webhookView>, secret: string | undefined) =>
  secret === undefined ? view : { ...view, secret };

export const attemptView = (a: AttemptRecord) => ({
  number: a.number,
  manual: a.manual,
  attempted_at: a.attemptedAt.toISOString(),
  status_code: a.statusCode,
  latency_ms: a.latencyMs,
  response_excerpt: a.responseExcerpt,
  error: a.error,
});

export const deliveryView = (d: DeliveryRecord, attempts: AttemptRecord[]) => ({
  id: d.id,
  event_id: d.eventId,
  event_type: d.eventType,
  status: d.status,
  attempt_count: d.attempts,
  next_attempt_at: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
  last_attempt_at: iso(d.lastAttemptAt),
  last_status_code: d.lastStatusCode,
  created_at: d.createdAt.toISOString(),
  payload: d.payload,
  attempts: attempts.map(attemptView),
});
