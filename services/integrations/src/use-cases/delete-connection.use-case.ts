import { deleteConnection as remove } from '../db/connection.repository.ts';
import { ConnectionNotFoundError } from '../errors.ts';
import { ownedConnection } from './shared/connections.ts';
import type { IntegrationsContext } from './shared/context.ts';

/** Deletes the connection and its credentials; stories it imported stay, and are skipped by later syncs. */
export async function deleteConnection(ctx: IntegrationsContext, ownerId: string, id: string) {
  const row = await ownedConnection(ctx, ownerId, id);
  if (!(await remove(ctx.em, row.id))) throw new ConnectionNotFoundError();
  return { id: row.id };
}
