import { findConnection, updateConnection as save } from '../db/connection.repository.ts';
import {
  checkedFields,
  checkConnectionUrls,
  decryptCredentials,
  encryptCredentials,
  ownedConnection,
  specOf,
} from './shared/connections.ts';
import { connectionView } from './shared/connection-view.ts';
import type { IntegrationsContext } from './shared/context.ts';

export interface UpdateConnectionInput {
  name?: string;
  credentials?: Record<string, unknown>;
  settings?: Record<string, unknown>;
}

/**
 * Each field given replaces the stored one (`null` in settings removes an optional one); credentials
 * given are re-encrypted with the current key. New credentials make a connection that needed
 * reconnecting active again. An OAuth connection given credentials becomes a token connection: its
 * tokens go (the adapters would keep calling with the access token, and refreshing it, before a
 * pasted one), so what is given is the provider's whole set of credentials.
 */
export async function updateConnection(
  ctx: IntegrationsContext,
  ownerId: string,
  id: string,
  input: UpdateConnectionInput,
) {
  const row = await ownedConnection(ctx, ownerId, id);
  const spec = specOf(row.provider);
  const removed = Object.entries(input.settings ?? {})
    .filter(([, v]) => v === null)
    .map(([k]) => k);
  const given = Object.fromEntries(Object.entries(input.settings ?? {}).filter(([, v]) => v !== null));
  const changed = checkedFields(spec, 'settings', given, { partial: true });
  const merged = { ...row.settings, ...changed };
  for (const key of removed) delete merged[key];
  const settings = checkedFields(spec, 'settings', merged);
  const toToken = input.credentials !== undefined && row.authMethod === 'oauth';
  const fresh = input.credentials
    ? checkedFields(spec, 'credentials', input.credentials, { partial: !toToken })
    : undefined;
  await checkConnectionUrls(ctx, spec, {
    settings: input.settings ? settings : undefined,
    credentials: fresh,
  });
  const credentials = fresh
    ? encryptCredentials(ctx, row, toToken ? fresh : { ...decryptCredentials(ctx, row), ...fresh })
    : undefined;
  await save(
    ctx.em,
    row.id,
    {
      name: input.name,
      settings: input.settings ? settings : undefined,
      credentials,
      status: credentials ? 'active' : undefined,
      ...(toToken ? { authMethod: 'token' as const, tokenExpiresAt: null } : {}),
    },
    ctx.now(),
  );
  return connectionView((await findConnection(ctx.em, row.id))!);
}
