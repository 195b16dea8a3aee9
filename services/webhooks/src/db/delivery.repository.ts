import type { EntityManager } from '@pp/db';
import { currentTraceparent } from '@pp/telemetry';
import type { WebhookPayload } from '../domain/payload.ts';
import { asDate, asDateOrNull, query } from './sql.ts';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  payload: WebhookPayload;
  status: DeliveryStatus;
  attempts: number;
  retries: boolean;
  nextAttemptAt: Date | null;
  claimedUntil: Date | null;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  createdAt: Date;
}

interface Row {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  payload: WebhookPayload;
  status: DeliveryStatus;
  attempts: number;
  retries: boolean;
  next_attempt_at: Date | null;
  claimed_until: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  created_at: Date;
}

const record = (r: Row): DeliveryRecord => ({
  id: r.id,
  webhookId: r.webhook_id,
  eventId: r.event_id,
  eventType: r.event_type,
  payload: r.payload,
  status: r.status,
  attempts: r.attempts,
  retries: r.retries,
  nextAttemptAt: asDateOrNull(r.next_attempt_at),
  claimedUntil: asDateOrNull(r.claimed_until),
  lastAttemptAt: asDateOrNull(r.last_attempt_at),
  lastStatusCode: r.last_status_code,
  createdAt: asDate(r.created_at),
});

export interface EventDeliveries {
  ownerId: string;
  sessionId: string;
  eventId: string;
  type: string;
  payload: WebhookPayload;
}

/** The statement of addEventDeliveries (below). */
export const ADD_EVENT_DELIVERIES_SQL = `insert into deliveries (id, webhook_id, event_id, event_type, payload, status, attempts, retries, next_attempt_at, created_at, traceparent)
     select gen_random_uuid(), w.id, e.event_id, e.type, e.payload, 'pending', 0, true,
            now() + (e.n - 1) * interval '1 microsecond', now() + (e.n - 1) * interval '1 microsecond', $2::text
       from rows from (jsonb_to_recordset($1::jsonb)
              as (owner_id text, session_id uuid, event_id uuid, type varchar, payload jsonb))
              with ordinality as e(owner_id, session_id, event_id, type, payload, n)
       -- each event's owner's webhooks by index (offset 0: not flattened into a join, which a plan kept
       -- from when the table was small would make a read of every webhook)
       cross join lateral (
         select w.id from webhooks w
          where w.owner_id = e.owner_id and w.enabled and (w.session_id is null or w.session_id = e.session_id)
            and (w.events @> array[e.type]::text[] or w.events @> array['*'])
         offset 0) w
     on conflict (webhook_id, event_id) do nothing
     returning id`;

/**
 * One delivery, due now, for each enabled webhook of the session's owner that subscribes to the event
 * (all of the owner's sessions, or this one), for every event given, in one statement. An event
 * handled twice adds nothing the second time. The events of a burst fall due a microsecond apart, in
 * the order given: claims (by due time) take them event after event, each to every webhook, so one
 * claim reaches many endpoints rather than piling up on one. They are created a microsecond apart too, so
 * the delivery log (newest first) lists a burst in the order of its events, not shuffled by id.
 * Resolves with how many deliveries were added.
 */
export async function addEventDeliveries(em: EntityManager, events: EventDeliveries[]): Promise<number> {
  if (events.length === 0) return 0;
  const rows = await query<{ id: string }>(em, 'add_event_deliveries', ADD_EVENT_DELIVERIES_SQL, [
    JSON.stringify(
      events.map((e) => ({
        owner_id: e.ownerId,
        session_id: e.sessionId,
        event_id: e.eventId,
        type: e.type,
        payload: e.payload,
      })),
    ),
    currentTraceparent(),
  ]);
  return rows.length;
}

/**
 * The webhook, if it is enabled, held so that it stays enabled (and there) until the statement is done:
 * a delivery queued by the statement is pending only behind an enabled webhook, and a disabling that
 * comes after it finds it pending and fails it.
 */
const ENABLED_WEBHOOK = `hook as (select id from webhooks where id = $2 and enabled for share)`;

/** A delivery of the test event: one attempt, no retries; undefined when the webhook is disabled or gone. */
export async function addTestDelivery(
  em: EntityManager,
  d: { id: string; webhookId: string; payload: WebhookPayload },
) {
  const rows = await query<Row>(
    em,
    'add_test_delivery',
    `with ${ENABLED_WEBHOOK}
     insert into deliveries (id, webhook_id, event_id, event_type, payload, status, attempts, retries, next_attempt_at, created_at)
     select $1::uuid, hook.id, $1::uuid, $3::varchar, $4::jsonb, 'pending', 0, false, now(), now() from hook
     returning *`,
    [d.id, d.webhookId, d.payload.type, JSON.stringify(d.payload)],
  );
  return rows[0] && record(rows[0]);
}

export async function findDelivery(em: EntityManager, webhookId: string, id: string) {
  const rows = await query<Row>(
    em,
    'find_delivery',
    'select * from deliveries where id = $1 and webhook_id = $2',
    [id, webhookId],
  );
  return rows[0] && record(rows[0]);
}

/** A delivery's attempts as one JSON array, oldest first (`d` is the delivery's row). */
const ATTEMPT_LOG = `coalesce((select json_agg(a order by a.number) from delivery_attempts a where a.delivery_id = d.id), '[]')`;

/**
 * Asks for one more attempt now: a pending delivery is brought forward (its retries stay), a settled
 * one gets a single attempt. Resolves with the delivery and its attempts so far, read by the same
 * statement (an attempt made meanwhile cannot show beside the status before it); undefined while an
 * attempt is in flight, or once the webhook is disabled or gone.
 */
export async function requestRedelivery(em: EntityManager, webhookId: string, id: string) {
  const rows = await query<Row & { attempt_log: AttemptRow[] }>(
    em,
    'request_redelivery',
    `with ${ENABLED_WEBHOOK}
     update deliveries d set
       retries = (d.status = 'pending' and d.retries),
       status = 'pending', next_attempt_at = now(), redeliver_requested = true
     from hook
     where d.id = $1 and d.webhook_id = hook.id and (d.claimed_until is null or d.claimed_until < now())
     returning d.*, ${ATTEMPT_LOG} as attempt_log`,
    [id, webhookId],
  );
  return rows[0] && withAttempts(rows[0]);
}

/** Deliveries that wait for an attempt fail at once (their webhook was disabled). */
export async function failPendingDeliveries(em: EntityManager, webhookId: string): Promise<void> {
  await query(
    em,
    'fail_pending',
    `update deliveries set status = 'failed', next_attempt_at = null
     where webhook_id = $1 and status = 'pending' and (claimed_until is null or claimed_until < now())`,
    [webhookId],
  );
}

/**
 * One page of a webhook's deliveries, newest first, each with its attempts, in one statement: one
 * snapshot, so a delivery's status and its attempts always agree (an attempt and the status it
 * leads to are written together).
 */
export async function listDeliveries(em: EntityManager, webhookId: string, limit: number, offset: number) {
  const rows = await query<Row & { total: string; attempt_log: AttemptRow[] }>(
    em,
    'list_deliveries_with_attempts',
    `select d.*, count(*) over () as total, ${ATTEMPT_LOG} as attempt_log
     from deliveries d where d.webhook_id = $1
     order by d.created_at desc, d.id limit $2 offset $3`,
    [webhookId, limit, offset],
  );
  const total = rows[0]
    ? Number(rows[0].total)
    : ((
        await query<{ n: number }>(
          em,
          'count_deliveries',
          'select count(*)::int as n from deliveries where webhook_id = $1',
          [webhookId],
        )
      )[0]?.n ?? 0);
  return { deliveries: rows.map(withAttempts), total };
}

export interface AttemptRecord {
  deliveryId: string;
  number: number;
  manual: boolean;
  attemptedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  responseExcerpt: string | null;
  error: string | null;
}

/** An attempt as the database has it (as a row, or as JSON inside another row). */
interface AttemptRow {
  delivery_id: string;
  number: number;
  manual: boolean;
  attempted_at: Date | string;
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
}

const attempt = (r: AttemptRow): AttemptRecord => ({
  deliveryId: r.delivery_id,
  number: r.number,
  manual: r.manual,
  attemptedAt: asDate(r.attempted_at),
  statusCode: r.status_code,
  latencyMs: r.latency_ms,
  responseExcerpt: r.response_excerpt,
  error: r.error,
});

/** A delivery's row with its ATTEMPT_LOG, as the delivery and its attempts. */
const withAttempts = ({ attempt_log, ...row }: Row & { attempt_log: AttemptRow[] }) => ({
  delivery: record(row),
  attempts: attempt_log.map(attempt),
});

/**
 * A batch of pruneDeliveries: the oldest first, through the index of their age (without an order, a
 * read of the table from its start).
 */
export const PRUNE_DELIVERIES_SQL = `delete from deliveries where id in (
       select id from deliveries where created_at < $1 and status <> 'pending' order by created_at limit $2
     ) returning id`;

/** Deliveries settled before the cutoff go, with their attempts; resolves with how many went. */
export async function pruneDeliveries(em: EntityManager, before: Date, batch: number): Promise<number> {
  const rows = await query<{ id: string }>(em, 'prune_deliveries', PRUNE_DELIVERIES_SQL, [before, batch]);
  return rows.length;
}
