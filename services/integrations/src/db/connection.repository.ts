import type { EntityManager } from '@pp/db';
import { rows } from './sql.ts';

export type ConnectionStatus = 'active' | 'needs_reconnection';

/** A connection as stored: its credentials still encrypted. */
export interface ConnectionRow {
  id: string;
  ownerId: string;
  provider: string;
  name: string;
  authMethod: 'token' | 'oauth' | 'none';
  settings: Record<string, unknown>;
  credentials: string;
  status: ConnectionStatus;
  account: string | null;
  tokenExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = `id, owner_id, provider, name, auth_method, settings, credentials, status, account, token_expires_at,
  created_at, updated_at`;

const rowOf = (r: Record<string, unknown>): ConnectionRow => ({
  id: r.id as string,
  ownerId: r.owner_id as string,
  provider: r.provider as string,
  name: r.name as string,
  authMethod: r.auth_method as ConnectionRow['authMethod'],
  settings: r.settings as Record<string, unknown>,
  credentials: r.credentials as string,
  status: r.status as ConnectionStatus,
  account: (r.account as string | null) ?? null,
  tokenExpiresAt: r.token_expires_at ? new Date(r.token_expires_at as string) : null,
  createdAt: new Date(r.created_at as string),
  updatedAt: new Date(r.updated_at as string),
});

/** Inserts the connection unless its owner already has `limit` of them; false when over the limit. */
export async function insertConnection(em: EntityManager, c: ConnectionRow, limit: number): Promise<boolean> {
  const inserted = await rows(
    em,
    `insert into connections (${COLUMNS})
     select ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?
      where (select count(*) from connections where owner_id = ?) < ?
     returning id`,
    [
      c.id,
      c.ownerId,
      c.provider,
      c.name,
      c.authMethod,
      JSON.stringify(c.settings),
      c.credentials,
      c.status,
      c.account,
      c.tokenExpiresAt,
      c.createdAt,
      c.updatedAt,
      c.ownerId,
      limit,
    ],
  );
  return inserted.length > 0;
}

/** The connection by id, whoever owns it (the caller checks the owner). */
export async function findConnection(em: EntityManager, id: string) {
  const [found] = await rows(em, `select ${COLUMNS} from connections where id = ?`, [id]);
  return found ? rowOf(found) : undefined;
}

/**
 * Takes the refresh lease of an active OAuth connection whose token still expires at `seen` (not
 * refreshed meanwhile), unless another holder's lease still runs: the connection as it is, or
 * undefined when the lease is not this caller's. One statement: no lock outlives it. (The expiry is
 * compared as JavaScript reads it, to the millisecond.)
 */
export async function takeRefreshLease(
  em: EntityManager,
  id: string,
  seen: Date,
  lease: { id: string; until: Date; now: Date },
) {
  const [taken] = await rows(
    em,
    `update connections set refresh_lease = ?, refresh_lease_until = ?
      where id = ? and status = 'active' and date_trunc('milliseconds', token_expires_at) = ?
        and (refresh_lease_until is null or refresh_lease_until < ?)
      returning ${COLUMNS}`,
    [lease.id, lease.until, id, seen, lease.now],
  );
  return taken ? rowOf(taken) : undefined;
}

/**
 * Ends a refresh lease: stores what the refresh gave (new credentials and expiry, or the status a
 * refused grant leaves) if the lease is still the holder's (not given up, nor the credentials
 * replaced or the connection deleted meanwhile). False when it was not.
 */
export async function endRefreshLease(
  em: EntityManager,
  id: string,
  leaseId: string,
  outcome:
    | { credentials: string; tokenExpiresAt: Date | null }
    | { status: ConnectionStatus }
    | Record<string, never>,
  now: Date,
): Promise<boolean> {
  const sets = ['refresh_lease = null', 'refresh_lease_until = null', 'updated_at = ?'];
  const params: unknown[] = [now];
  if ('credentials' in outcome) {
    sets.push('credentials = ?', 'token_expires_at = coalesce(?, token_expires_at)');
    params.push(outcome.credentials, outcome.tokenExpiresAt);
  }
  if ('status' in outcome) {
    sets.push('status = ?');
    params.push(outcome.status);
  }
  const ended = await rows(
    em,
    `update connections set ${sets.join(', ')} where id = ? and refresh_lease = ? returning id`,
    [...params, id, leaseId],
  );
  return ended.length > 0;
}

export async function connectionsOf(em: EntityManager, ownerId: string) {
  return (
    await rows(em, `select ${COLUMNS} from connections where owner_id = ? order by created_at, id`, [ownerId])
  ).map(rowOf);
}

/** Connections that write estimates back on their own (auto_sync), among those given. */
export async function connectionsByIds(em: EntityManager, ids: string[]) {
  if (ids.length === 0) return [];
  return (
    await rows(em, `select ${COLUMNS} from connections where id = any(?::uuid[])`, [`{${ids.join(',')}}`])
  ).map(rowOf);
}

export async function updateConnection(
  em: EntityManager,
  id: string,
  change: Partial<
    Pick<
      ConnectionRow,
      'name' | 'settings' | 'credentials' | 'status' | 'account' | 'authMethod' | 'tokenExpiresAt'
    >
  >,
  now: Date,
): Promise<void> {
  const sets: string[] = ['updated_at = ?'];
  const params: unknown[] = [now];
  const column = {
    name: 'name',
    settings: 'settings',
    credentials: 'credentials',
    status: 'status',
    account: 'account',
    authMethod: 'auth_method',
    tokenExpiresAt: 'token_expires_at',
  } as const;
  for (const [key, value] of Object.entries(change) as Array<[keyof typeof column, unknown]>) {
    if (value === undefined) continue;
    sets.push(`${column[key]} = ?${key === 'settings' ? '::jsonb' : ''}`);
    params.push(key === 'settings' ? JSON.stringify(value) : value);
  }
  // New credentials end any refresh under way: what it gets must not replace them.
  if (change.credentials !== undefined) sets.push('refresh_lease = null', 'refresh_lease_until = null');
  await rows(em, `update connections set ${sets.join(', ')} where id = ?`, [...params, id]);
}

/** Deletes a connection; false when it was gone already (deleted at the same moment by another request). */
export async function deleteConnection(em: EntityManager, id: string): Promise<boolean> {
  return (await rows(em, 'delete from connections where id = ? returning id', [id])).length > 0;
}
