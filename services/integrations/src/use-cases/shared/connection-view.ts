import type { ConnectionRow } from '../../db/connection.repository.ts';
import { providerSpec } from '../../domain/providers.ts';

/** A connection as its owner sees it: the settings, which credentials are stored, never their values. */
export const connectionView = (c: ConnectionRow) => ({
  id: c.id,
  provider: c.provider,
  name: c.name,
  auth_method: c.authMethod,
  settings: c.settings,
  credentials: {
    stored: (providerSpec(c.provider)?.fields ?? [])
      .filter((f) => f.group === 'credentials')
      .map((f) => f.name),
    ...(c.authMethod === 'oauth' ? { expires_at: c.tokenExpiresAt?.toISOString() ?? null } : {}),
  },
  status: c.status,
  account: c.account,
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
});
