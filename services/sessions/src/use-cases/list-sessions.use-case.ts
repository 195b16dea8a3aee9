import { findFolder } from '../db/folder.repository.ts';
import { listSessionsWithFacts, type SessionFilter } from '../db/session.repository.ts';
import type { SessionsContext } from './shared/context.ts';
import { owned } from './shared/owned.ts';

/** One page of the caller's sessions, each with its room facts. A folder must be the caller's (404, 403). */
export async function listOwnSessions(ctx: SessionsContext, filter: SessionFilter) {
  if (typeof filter.folderId === 'number')
    owned(await findFolder(ctx.em, filter.folderId), filter.ownerId, 'folder');
  return listSessionsWithFacts(ctx.em, filter);
}
