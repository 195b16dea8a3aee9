import { connectionsOf } from '../db/connection.repository.ts';
import { connectionView } from './shared/connection-view.ts';
import type { IntegrationsContext } from './shared/context.ts';

/** The caller's connections, oldest first. */
export const listConnections = async (ctx: IntegrationsContext, ownerId: string) =>
  (await connectionsOf(ctx.em, ownerId)).map(connectionView);
