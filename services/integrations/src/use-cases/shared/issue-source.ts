import type { IssueAdapter, ProviderConnection } from '../../clients/providers/adapter.ts';
import type { ConnectionRow } from '../../db/connection.repository.ts';
import { isImportProvider } from '../../domain/providers.ts';
import { fieldError } from '../../errors.ts';
import { ownedConnection } from './connections.ts';
import type { IntegrationsContext } from './context.ts';
import { providerConnection } from './provider-connection.ts';

/** Where an import reads from: a tracker connection of the caller and its adapter. */
export interface TrackerSource {
  row: ConnectionRow;
  adapter: IssueAdapter;
  connection: ProviderConnection;
  /** The tracker instance: with an external id, the key of the import's idempotency. */
  source: string;
}

export async function trackerSource(
  ctx: IntegrationsContext,
  ownerId: string,
  connectionId: string,
): Promise<TrackerSource> {
  const row = await ownedConnection(ctx, ownerId, connectionId);
  if (!isImportProvider(row.provider))
    throw fieldError('connection_id', 'this connection is a notification target, not a tracker');
  const adapter = ctx.adapters[row.provider];
  return { row, adapter, connection: providerConnection(ctx, row), source: adapter.source(row.settings) };
}
