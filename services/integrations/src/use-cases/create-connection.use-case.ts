import { randomUUID } from 'node:crypto';
import { fieldError } from '../errors.ts';
import {
  checkedFields,
  checkConnectionUrls,
  encryptCredentials,
  specOf,
  storeConnection,
} from './shared/connections.ts';
import { connectionView } from './shared/connection-view.ts';
import type { IntegrationsContext } from './shared/context.ts';

export interface CreateConnectionInput {
  provider: string;
  name?: string;
  credentials?: Record<string, unknown>;
  settings?: Record<string, unknown>;
}

/**
 * A connection made with pasted credentials: each field checked against the provider's list, every
 * address it names checked against SSRF, the credentials encrypted to this row. OAuth connections
 * are made by the OAuth callback.
 */
export async function createConnection(
  ctx: IntegrationsContext,
  ownerId: string,
  input: CreateConnectionInput,
) {
  const spec = specOf(input.provider);
  if (spec.id === 'csv')
    throw fieldError('provider', 'a CSV import needs no connection: send the file to import-preview');
  if (!spec.auth.includes('token') && !spec.auth.includes('none'))
    throw fieldError('provider', 'this provider connects with OAuth only');
  const credentials = checkedFields(spec, 'credentials', input.credentials);
  const settings = checkedFields(spec, 'settings', input.settings);
  await checkConnectionUrls(ctx, spec, { settings, credentials });
  const now = ctx.now();
  const row = {
    id: randomUUID(),
    ownerId,
    provider: spec.id,
    name: input.name ?? spec.name,
    authMethod: Object.keys(credentials).length > 0 ? ('token' as const) : ('none' as const),
    settings,
    credentials: '',
    status: 'active' as const,
    account: null,
    tokenExpiresAt: null,
    createdAt: now,
    updatedAt: now,
  };
  row.credentials = encryptCredentials(ctx, row, credentials);
  await storeConnection(ctx, row);
  return connectionView(row);
}
