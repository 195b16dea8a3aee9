import type { EntityManager } from '@pp/db';
import { rows } from './sql.ts';

export type SyncStatus = 'synced' | 'failed' | 'skipped';

export interface SyncLogEntry {
  ownerId: string;
  sessionId: string;
  sessionCode: string;
  storyId: string | null;
  connectionId: string | null;
  provider: string;
  externalId: string | null;
  status: SyncStatus;
  estimate: string | null;
  message: string | null;
  trigger: 'manual' | 'auto';
  /** The story.revealed event an automatic sync answered (at most one row per event and story). */
  eventId: string | null;
}

export interface SyncLogRow extends SyncLogEntry {
  id: number;
  createdAt: Date;
}

/** Writes the rows of one sync attempt; those of an event already handled are left out. How many were new. */
export async function insertSyncLogs(em: EntityManager, entries: SyncLogEntry[], now: Date): Promise<number> {
  if (entries.length === 0) return 0;
  const inserted = await rows(
    em,
    `insert into sync_logs (owner_id, session_id, session_code, story_id, connection_id, provider, external_id,
                            status, estimate, message, trigger, event_id, created_at)
     select e.owner_id, e.session_id, e.session_code, e.story_id, e.connection_id, e.provider, e.external_id,
            e.status, e.estimate, e.message, e.trigger, e.event_id, ?::timestamptz
       from jsonb_to_recordset(?::jsonb) as e(owner_id text, session_id uuid, session_code text, story_id uuid,
            connection_id uuid, provider text, external_id text, status text, estimate text, message text,
            trigger text, event_id uuid, ord int)
      order by e.ord
     on conflict do nothing
     returning id`,
    [
      now,
      JSON.stringify(
        entries.map((e, ord) => ({
          owner_id: e.ownerId,
          session_id: e.sessionId,
          session_code: e.sessionCode,
          story_id: e.storyId,
          connection_id: e.connectionId,
          provider: e.provider,
          external_id: e.externalId,
          status: e.status,
          estimate: e.estimate,
          message: e.message?.slice(0, 1_000) ?? null,
          trigger: e.trigger,
          event_id: e.eventId,
          ord,
        })),
      ),
    ],
  );
  return inserted.length;
}

/**
 * A batch of pruneSyncLogs: the `batch` oldest logs through the index of their age, those of them
 * before the cutoff deleted by key. (Asked with the cutoff in the read, or joined to the delete, the
 * planner may read the table whole, as it does without statistics.)
 */
export const PRUNE_SYNC_LOGS_SQL = `delete from sync_logs where id = any(array(
       select id from (select id, created_at from sync_logs order by created_at limit ?) oldest
        where created_at < ?)) returning id`;

/** At most `batch` sync logs written before `before` go; resolves with how many went. */
export async function pruneSyncLogs(em: EntityManager, before: Date, batch: number): Promise<number> {
  return (await rows(em, PRUNE_SYNC_LOGS_SQL, [batch, before])).length;
}

/** Whether an automatic sync of this event and story was already recorded. */
export async function eventSynced(em: EntityManager, eventId: string, storyId: string): Promise<boolean> {
  const found = await rows(em, 'select 1 from sync_logs where event_id = ? and story_id = ?', [
    eventId,
    storyId,
  ]);
  return found.length > 0;
}

export interface SyncLogFilter {
  ownerId: string;
  sessionCode?: string;
  connectionId?: string;
  status?: SyncStatus;
}

/** A page of the owner's sync logs, newest first, and how many there are in all. */
export async function syncLogPage(em: EntityManager, filter: SyncLogFilter, page: number, perPage: number) {
  const where = ['owner_id = ?'];
  const params: unknown[] = [filter.ownerId];
  for (const [column, value] of [
    ['session_code', filter.sessionCode],
    ['connection_id', filter.connectionId],
    ['status', filter.status],
  ] as const) {
    if (value === undefined) continue;
    where.push(`${column} = ?`);
    params.push(value);
  }
  const clause = where.join(' and ');
  const [count] = await rows<{ total: number }>(
    em,
    `select count(*)::int as total from sync_logs where ${clause}`,
    params,
  );
  const found = await rows(em, `select * from sync_logs where ${clause} order by id desc limit ? offset ?`, [
    ...params,
    perPage,
    (page - 1) * perPage,
  ]);
  const logs: SyncLogRow[] = found.map((r) => ({
    id: Number(r.id),
    ownerId: r.owner_id as string,
    sessionId: r.session_id as string,
    sessionCode: r.session_code as string,
    storyId: (r.story_id as string | null) ?? null,
    connectionId: (r.connection_id as string | null) ?? null,
    provider: r.provider as string,
    externalId: (r.external_id as string | null) ?? null,
    status: r.status as SyncStatus,
    estimate: (r.estimate as string | null) ?? null,
    message: (r.message as string | null) ?? null,
    trigger: r.trigger as 'manual' | 'auto',
    eventId: (r.event_id as string | null) ?? null,
    createdAt: new Date(r.created_at as string),
  }));
  return { logs, total: count?.total ?? 0 };
}
