import type { EntityManager } from '@pp/db';
import type { WebhookKind } from '../domain/chat-formats.ts';
import { asDate, asDateOrNull, query } from './sql.ts';

export interface WebhookRecord {
  id: string;
  ownerId: string;
  url: string;
  kind: WebhookKind;
  events: string[];
  sessionId: string | null;
  sessionCode: string | null;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretUntil: Date | null;
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: Date | null;
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

interface Row {
  id: string;
  owner_id: string;
  url: string;
  kind: WebhookKind;
  events: string[];
  session_id: string | null;
  session_code: string | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_until: Date | null;
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

const record = (r: Row): WebhookRecord => ({
  id: r.id,
  ownerId: r.owner_id,
  url: r.url,
  kind: r.kind,
  events: r.events,
  sessionId: r.session_id,
  sessionCode: r.session_code,
  secretSealed: r.secret_sealed,
  previousSecretSealed: r.previous_secret_sealed,
  previousSecretUntil: asDateOrNull(r.previous_secret_until),
  enabled: r.enabled,
  disabledReason: r.disabled_reason,
  disabledAt: asDateOrNull(r.disabled_at),
  failingSince: asDateOrNull(r.failing_since),
  createdAt: asDate(r.created_at),
  updatedAt: asDate(r.updated_at),
});

export type NewWebhook = Pick<
  WebhookRecord,
  'id' | 'ownerId' | 'url' | 'kind' | 'events' | 'sessionId' | 'sessionCode' | 'secretSealed'
>;

/**
 * Inserts the webhook unless its owner already has `limit` of them; undefined when over the limit. It
 * runs in the caller's transaction (the one that holds the owner's turn), so it is not a prepared
 * statement; the events go as JSON, since this driver path spreads an array parameter into a list.
 */
export async function insertWebhook(tx: EntityManager, w: NewWebhook, limit: number) {
  const rows = (await tx.getConnection().execute(
    `insert into webhooks (id, owner_id, url, kind, events, session_id, session_code, secret_sealed, enabled, created_at, updated_at)
     select ?::uuid, ?::varchar, ?::text, ?::varchar, array(select jsonb_array_elements_text(?::jsonb)), ?::uuid, ?::char(6), ?::text, true, now(), now()
     where (select count(*) from webhooks where owner_id = ?::varchar) < ?::int
     returning *`,
    [
      w.id,
      w.ownerId,
      w.url,
      w.kind,
      JSON.stringify(w.events),
      w.sessionId,
      w.sessionCode,
      w.secretSealed,
      w.ownerId,
      limit,
    ],
    'all',
    tx.getTransactionContext(),
  )) as Row[];
  return rows[0] && record(rows[0]);
}

/** A webhook by id, whoever owns it (the caller checks the owner). */
export async function findWebhook(em: EntityManager, id: string) {
  const rows = await query<Row>(em, 'find_webhook', 'select * from webhooks where id = $1', [id]);
  return rows[0] && record(rows[0]);
}

export async function listOwnedWebhooks(em: EntityManager, ownerId: string, limit: number, offset: number) {
  const rows = await query<Row & { total: string }>(
    em,
    'list_webhooks',
    `select *, count(*) over () as total from webhooks where owner_id = $1
     order by created_at, id limit $2 offset $3`,
    [ownerId, limit, offset],
  );
  const total = rows[0] ? Number(rows[0].total) : await countOwned(em, ownerId);
  return { webhooks: rows.map(record), total };
}

async function countOwned(em: EntityManager, ownerId: string) {
  const rows = await query<{ n: number }>(
    em,
    'count_webhooks',
    'select count(*)::int as n from webhooks where owner_id = $1',
    [ownerId],
  );
  return rows[0]?.n ?? 0;
}

export interface WebhookChanges {
  url?: string;
  events?: string[];
  /** true re-enables (and forgets the failures); false disables with `disabledReason`. */
  enabled?: boolean;
  disabledReason?: string;
  /** A new sealed secret: the current one signs beside it until `previousUntil`. */
  secretSealed?: string;
  previousUntil?: Date;
}

export async function updateWebhook(em: EntityManager, id: string, ownerId: string, c: WebhookChanges) {
  const rows = await query<Row>(
    em,
    'update_webhook',
    `update webhooks set
       url = coalesce($3::text, url),
       events = coalesce($4::text[], events),
       enabled = coalesce($5::boolean, enabled),
       disabled_reason = case when $5::boolean is null then disabled_reason when $5::boolean then null else $6::text end,
       disabled_at = case when $5::boolean is null then disabled_at when $5::boolean then null else coalesce(disabled_at, now()) end,
       failing_since = case when $5::boolean then null else failing_since end,
       previous_secret_sealed = case when $7::text is null then previous_secret_sealed else secret_sealed end,
       previous_secret_until = case when $7::text is null then previous_secret_until else $8::timestamptz end,
       secret_sealed = coalesce($7::text, secret_sealed),
       updated_at = now()
     where id = $1 and owner_id = $2
     returning *`,
    [
      id,
      ownerId,
      c.url ?? null,
      c.events ?? null,
      c.enabled ?? null,
      c.disabledReason ?? null,
      c.secretSealed ?? null,
      c.previousUntil ?? null,
    ],
  );
  return rows[0] && record(rows[0]);
}

export async function deleteWebhook(em: EntityManager, id: string, ownerId: string) {
  const rows = await query<Row>(
    em,
    'delete_webhook',
    'delete from webhooks where id = $1 and owner_id = $2 returning *',
    [id, ownerId],
  );
  return rows[0] && record(rows[0]);
}

/**
 * The event types that at least one enabled webhook subscribes to (`*` standing for all of them), each
 * with the earliest last change of those webhooks: none of them wanted the type before then.
 */
export async function wantedEventTypes(em: EntityManager): Promise<Map<string, Date>> {
  const rows = await query<{ type: string; since: Date | string }>(
    em,
    'wanted_event_types',
    // kept by a trigger as the webhooks change (see WantedEventTypesMigration)
    'select type, since from wanted_event_types where webhooks > 0',
  );
  return new Map(rows.map((r) => [r.type, asDate(r.since)]));
}
