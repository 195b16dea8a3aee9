import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EntityManager } from '@pp/db';
import type { ProviderConnection } from '../../clients/providers/adapter.ts';
import { InvalidGrantError, type TokenSet } from '../../clients/oauth.client.ts';
import {
  endRefreshLease,
  findConnection,
  takeRefreshLease,
  type ConnectionRow,
} from '../../db/connection.repository.ts';
import type { ImportProviderId } from '../../domain/providers.ts';
import { NeedsReconnectionError, ProviderUnavailableError } from '../../errors.ts';
import { decryptCredentials, encryptCredentials } from './connections.ts';
import type { IntegrationsContext } from './context.ts';

/** A token this close to expiring is refreshed before use. */
const REFRESH_MARGIN_MS = 60_000;

/**
 * How long a refresh may hold a connection's lease: well past the provider's timeout, so a lease runs
 * out only when its holder is gone (a crash), and another caller then refreshes in its place.
 */
const LEASE_MS = 30_000;
/** How often a caller waiting for another's refresh looks whether it is done. */
const WAIT_STEP_MS = 100;
/** How long a refreshed token is taken to last when the provider's answer does not say (seconds). */
const ASSUMED_LIFETIME_S = 3600;

/**
 * A fresh access token for an OAuth connection, one refresh at a time per connection: in this process
 * callers share the one in flight; across replicas one takes the connection's refresh lease (one
 * statement) and calls the provider with no transaction or lock open, and the others wait until it
 * has stored the new token. A rotated refresh token is stored with the access token (the old one is
 * dead once used). A refused grant marks the connection as needing reconnection.
 */
async function refresh(ctx: IntegrationsContext, id: string, seen: Date): Promise<Record<string, string>> {
  const em = ctx.em.fork();
  const leaseId = randomUUID();
  const deadline = Date.now() + LEASE_MS;
  for (;;) {
    const now = ctx.now();
    const row = await takeRefreshLease(em, id, seen, {
      id: leaseId,
      until: new Date(now.getTime() + LEASE_MS),
      now,
    });
    if (row) return refreshUnderLease(ctx, em, row, leaseId);
    const current = await findConnection(em, id);
    if (!current || current.status !== 'active') throw new NeedsReconnectionError();
    // Refreshed meanwhile (by another replica, or the owner's new credentials): use what it stored.
    if (current.tokenExpiresAt?.getTime() !== seen.getTime()) return decryptCredentials(ctx, current);
    if (Date.now() > deadline) throw new ProviderUnavailableError('The OAuth provider');
    await sleep(WAIT_STEP_MS);
  }
}

async function refreshUnderLease(
  ctx: IntegrationsContext,
  em: EntityManager,
  row: ConnectionRow,
  leaseId: string,
): Promise<Record<string, string>> {
  const stored = decryptCredentials(ctx, row);
  const app = ctx.oauthApps[row.provider as ImportProviderId];
  if (!app || !stored.refresh_token) {
    await endRefreshLease(em, row.id, leaseId, {}, ctx.now());
    return stored;
  }
  let tokens: TokenSet;
  try {
    tokens = await ctx.oauth.refresh(app, stored.refresh_token);
  } catch (err) {
    if (!(err instanceof InvalidGrantError)) {
      await endRefreshLease(em, row.id, leaseId, {}, ctx.now());
      throw err;
    }
    await endRefreshLease(em, row.id, leaseId, { status: 'needs_reconnection' }, ctx.now());
    throw new NeedsReconnectionError();
  }
  const credentials = {
    ...stored,
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token ?? stored.refresh_token,
  };
  // A refreshed token whose answer names no lifetime (expires_in is only recommended) is taken to last
  // an hour: kept, it would be the old, expired time, and every call would refresh it again.
  const lifetime = tokens.expires_in ?? ASSUMED_LIFETIME_S;
  const expires = new Date(ctx.now().getTime() + lifetime * 1000);
  // Stored unless the owner replaced the credentials or deleted the connection meanwhile; either way
  // the token is good for this use.
  await endRefreshLease(
    em,
    row.id,
    leaseId,
    { credentials: encryptCredentials(ctx, row, credentials), tokenExpiresAt: expires },
    ctx.now(),
  );
  return credentials;
}

function refreshOnce(ctx: IntegrationsContext, id: string, seen: Date) {
  let running = ctx.refreshes.get(id);
  if (!running) {
    running = refresh(ctx, id, seen).finally(() => ctx.refreshes.delete(id));
    ctx.refreshes.set(id, running);
  }
  return running;
}

/** The connection as an adapter uses it; refused when it needs reconnecting. */
export function providerConnection(ctx: IntegrationsContext, row: ConnectionRow): ProviderConnection {
  if (row.status === 'needs_reconnection') throw new NeedsReconnectionError();
  let credentials = decryptCredentials(ctx, row);
  let expiresAt = row.tokenExpiresAt;
  return {
    id: row.id,
    authMethod: row.authMethod,
    settings: row.settings,
    async credentials() {
      if (row.authMethod !== 'oauth' || !expiresAt) return credentials;
      if (expiresAt.getTime() - ctx.now().getTime() > REFRESH_MARGIN_MS) return credentials;
      credentials = await refreshOnce(ctx, row.id, expiresAt);
      expiresAt = null; // good for this use
      return credentials;
    },
  };
}
