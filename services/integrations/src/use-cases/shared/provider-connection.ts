import type { ProviderConnection } from '../../clients/providers/adapter.ts';
import { InvalidGrantError } from '../../clients/oauth.client.ts';
import { findConnection, updateConnection, type ConnectionRow } from '../../db/connection.repository.ts';
import type { ImportProviderId } from '../../domain/providers.ts';
import { NeedsReconnectionError } from '../../errors.ts';
import { decryptCredentials, encryptCredentials } from './connections.ts';
import type { IntegrationsContext } from './context.ts';

/** A token this close to expiring is refreshed before use. */
const REFRESH_MARGIN_MS = 60_000;

/** Refreshes in flight in this process, by connection: callers of the same connection share one. */
const inFlight = new Map<string, Promise<Record<string, string>>>();

type Outcome = { credentials: Record<string, string> } | { reconnect: true };

/**
 * A fresh access token for an OAuth connection, one refresh at a time per connection: in this process
 * callers share the one in flight; across replicas the connection's row lock serializes them, and
 * the second finds the token the first stored. A rotated refresh token is stored in the same commit
 * as the access token (the old one is dead once used). A refused grant marks the connection as
 * needing reconnection.
 */
async function refresh(ctx: IntegrationsContext, id: string, seen: Date): Promise<Record<string, string>> {
  const outcome = await ctx.em.fork().transactional(async (em): Promise<Outcome> => {
    const row = await findConnection(em, id, true);
    if (!row || row.status !== 'active') return { reconnect: true };
    const stored = decryptCredentials(ctx, row);
    if (row.tokenExpiresAt?.getTime() !== seen.getTime()) return { credentials: stored }; // refreshed meanwhile
    const app = ctx.oauthApps[row.provider as ImportProviderId];
    if (!app || !stored.refresh_token) return { credentials: stored };
    try {
      const tokens = await ctx.oauth.refresh(app, stored.refresh_token);
      const credentials = {
        ...stored,
        access_token: tokens.access_token,
        refresh_token: tokens.refresh_token ?? stored.refresh_token,
      };
      const expires = tokens.expires_in ? new Date(ctx.now().getTime() + tokens.expires_in * 1000) : null;
      await updateConnection(
        em,
        id,
        { credentials: encryptCredentials(ctx, row, credentials), tokenExpiresAt: expires ?? undefined },
        ctx.now(),
      );
      return { credentials };
    } catch (err) {
      if (!(err instanceof InvalidGrantError)) throw err;
      await updateConnection(em, id, { status: 'needs_reconnection' }, ctx.now());
      return { reconnect: true };
    }
  });
  if ('reconnect' in outcome) throw new NeedsReconnectionError();
  return outcome.credentials;
}

function refreshOnce(ctx: IntegrationsContext, id: string, seen: Date) {
  let running = inFlight.get(id);
  if (!running) {
    running = refresh(ctx, id, seen).finally(() => inFlight.delete(id));
    inFlight.set(id, running);
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
