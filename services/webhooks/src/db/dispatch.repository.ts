import { plannedRows, type EntityManager } from '@pp/db';
import type { WebhookKind } from '../domain/chat-formats.ts';
import type { WebhookPayload } from '../domain/payload.ts';
import { asDateOrNull, query } from './sql.ts';

/** A delivery taken for one attempt, with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  payload: WebhookPayload;
  /** The number of this attempt (1 for the first). */
  attempt: number;
  retries: boolean;
  manual: boolean;
  url: string;
  kind: WebhookKind;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretUntil: Date | null;
  /** The trace of the consumer that recorded the delivery (null without tracing). */
  traceparent?: string | null;
}

interface ClaimRow {
  id: string;
  webhook_id: string;
  payload: WebhookPayload;
  attempts: number;
  retries: boolean;
  manual: boolean;
  url: string;
  kind: WebhookKind;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_until: Date | null;
  traceparent: string | null;
}

/**
 * Takes up to `limit` due deliveries of enabled webhooks, skipping the webhooks given (busy or resting
 * endpoints), and leases them: `next_attempt_at` moves past the longest attempt, so no other replica
 * takes them meanwhile (rows locked by another replica's claim are skipped, never waited for), and a
 * replica that dies mid-attempt leaves them due again when the lease ends.
 */
export async function claimDueDeliveries(
  em: EntityManager,
  limit: number,
  skipWebhooks: string[],
  leaseMs: number,
): Promise<ClaimedDelivery[]> {
  const rows = await query<ClaimRow>(
    em,
    'claim_due',
    `with due as (
       select d.id from deliveries d join webhooks w on w.id = d.webhook_id
        where d.status = 'pending' and d.next_attempt_at <= now() and w.enabled
          and d.webhook_id <> all($2::uuid[])
        order by d.next_attempt_at
        limit $1
        for update of d skip locked
     ), previous as (
       select d.id, d.redeliver_requested as manual from deliveries d join due using (id)
     )
     update deliveries d set
       attempts = d.attempts + 1,
       next_attempt_at = now() + make_interval(secs => $3::float8 / 1000),
       claimed_until = now() + make_interval(secs => $3::float8 / 1000),
       redeliver_requested = false
     from previous p, webhooks w
     where d.id = p.id and w.id = d.webhook_id
     returning d.id, d.webhook_id, d.payload, d.attempts, d.retries, p.manual, w.url, w.kind,
               w.secret_sealed, w.previous_secret_sealed, w.previous_secret_until, d.traceparent`,
    [limit, skipWebhooks, leaseMs],
  );
  return rows.map((r) => ({
    id: r.id,
    webhookId: r.webhook_id,
    payload: r.payload,
    attempt: r.attempts,
    retries: r.retries,
    manual: r.manual,
    url: r.url,
    kind: r.kind,
    secretSealed: r.secret_sealed,
    previousSecretSealed: r.previous_secret_sealed,
    previousSecretUntil: asDateOrNull(r.previous_secret_until),
    traceparent: r.traceparent,
  }));
}

/** What came of one attempt, as recorded. `deferred`: not made (the endpoint's breaker was open); it does not count. */
export interface SettledAttempt {
  deliveryId: string;
  webhookId: string;
  number: number;
  manual: boolean;
  attemptedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  excerpt: string | null;
  error: string | null;
  outcome: 'succeeded' | 'failed' | 'gone' | 'deferred';
  /** When to try again; null when the delivery is settled. */
  nextAttemptAt: Date | null;
}

/**
 * The statement of settleAttempts. It reaches the batch's deliveries and webhooks by key (`= any` of
 * an array the statement makes first, or a look-up per row), and is planned on each run
 * (plannedRows): a plan kept from when the deliveries and webhooks were few went on reading both
 * tables whole for each batch.
 */
export const SETTLE_ATTEMPTS_SQL = `with r as (
       select * from jsonb_to_recordset($1::jsonb) as r(
         "deliveryId" uuid, "webhookId" uuid, number int, manual boolean, "attemptedAt" timestamptz,
         "statusCode" int, "latencyMs" int, excerpt text, error text, outcome text, "nextAttemptAt" timestamptz)
     ), logged as (
       insert into delivery_attempts (delivery_id, number, manual, attempted_at, status_code, latency_ms, response_excerpt, error)
       select "deliveryId", number, manual, "attemptedAt", "statusCode", "latencyMs", excerpt, error from r
        where outcome <> 'deferred' and exists (select 1 from deliveries d where d.id = r."deliveryId")
       on conflict do nothing
     ), health as (
       select "webhookId" as id, bool_or(outcome = 'succeeded') as ok, bool_or(outcome = 'gone') as gone,
              min("attemptedAt") filter (where outcome <> 'succeeded') as first_failure
         from r where outcome <> 'deferred' group by "webhookId"
     ), judged as (
       select h.*, not h.ok and coalesce(w.failing_since, h.first_failure) < $2 as failing_too_long
         from health h
         -- each webhook by its key (offset 0: not flattened into a join, planned as a read of them all)
         cross join lateral (select w.failing_since from webhooks w where w.id = h.id offset 0) w
     ), stopped as (
       select w.id from webhooks w left join judged j using (id)
        where w.id = any(array(select "webhookId" from r)) and (not w.enabled or coalesce(j.gone or j.failing_too_long, false))
     ), settled as (
       update deliveries d set
         status = case when r.outcome = 'succeeded' then 'succeeded'
                       when r."nextAttemptAt" is null or s.id is not null then 'failed' else 'pending' end,
         next_attempt_at = case when s.id is null then r."nextAttemptAt" end,
         claimed_until = null,
         attempts = case when r.outcome = 'deferred' then d.attempts - 1 else d.attempts end,
         redeliver_requested = d.redeliver_requested or (r.outcome = 'deferred' and r.manual and s.id is null),
         last_attempt_at = case when r.outcome = 'deferred' then d.last_attempt_at else r."attemptedAt" end,
         last_status_code = case when r.outcome = 'deferred' then d.last_status_code else r."statusCode" end
       from r left join stopped s on s.id = r."webhookId"
       where d.id = r."deliveryId" and d.attempts = r.number
     ), webhooks_now as (
       update webhooks w set
         failing_since = case when j.ok then null else coalesce(w.failing_since, j.first_failure) end,
         enabled = w.enabled and not (j.gone or j.failing_too_long),
         disabled_reason = case when not w.enabled then w.disabled_reason when j.gone then $3
                                when j.failing_too_long then $4 else null end,
         disabled_at = case when w.enabled and (j.gone or j.failing_too_long) then now() else w.disabled_at end
       from judged j where w.id = j.id and w.id = any(array(select id from judged))
       returning w.id, w.enabled
     )
     update deliveries d set status = 'failed', next_attempt_at = null
      where d.webhook_id = any(array(select id from webhooks_now where not enabled)) and d.status = 'pending'
        and d.id not in (select "deliveryId" from r)`;

/**
 * Records a batch of attempts in one statement: the attempts' log, of the deliveries still there (a
 * webhook deleted during an attempt took its deliveries with it; one deleted while this statement runs
 * fails it, and the batch, written again, finds it gone); each delivery's new state (only if
 * it is still the attempt this replica leased: a lease that ran out and was taken again is not
 * overwritten); each webhook's health (a success clears its failing streak; a 410, or failures only
 * since before `failingCutoff`, disable it with the reason); and the waiting deliveries of a webhook
 * disabled now fail, those of this batch with them: none stays pending behind a disabled webhook, to
 * resume when it is enabled again (its owner disabling it during the attempt counts too).
 */
export async function settleAttempts(
  em: EntityManager,
  attempts: SettledAttempt[],
  failingCutoff: Date,
  reasons: { gone: string; failing: string },
): Promise<void> {
  await plannedRows(em, SETTLE_ATTEMPTS_SQL, [
    JSON.stringify(attempts),
    failingCutoff,
    reasons.gone,
    reasons.failing,
  ]);
}
