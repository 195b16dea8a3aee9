import { updateConnection } from '../db/connection.repository.ts';
import { isImportProvider } from '../domain/providers.ts';
import { fieldError } from '../errors.ts';
import { ownedConnection } from './shared/connections.ts';
import { connectionView } from './shared/connection-view.ts';
import type { IntegrationsContext } from './shared/context.ts';
import { providerConnection } from './shared/provider-connection.ts';

/** Calls the provider: the credentials are accepted and the configured project is reachable (else a 4xx/503 saying which). */
export async function testConnection(ctx: IntegrationsContext, ownerId: string, id: string) {
  const row = await ownedConnection(ctx, ownerId, id);
  if (!isImportProvider(row.provider))
    throw fieldError('connection', 'only tracker connections can be tested');
  const result = await ctx.adapters[row.provider].test(providerConnection(ctx, row));
  await updateConnection(ctx.em, row.id, { account: result.account.slice(0, 255) }, ctx.now());
  return {
    connection: connectionView({ ...row, account: result.account }),
    account: result.account,
    warnings: result.warnings,
  };
}
