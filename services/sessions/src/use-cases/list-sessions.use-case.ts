import { findOwnFolder } from '../db/folder.repository.ts';
import { listSessionsWithFacts, type SessionFilter } from '../db/session.repository.ts';
import { FolderNotFoundError } from '../errors.ts';
import type { SessionsContext } from './shared/context.ts';

/** One page of the caller's sessions, each with its room facts. A folder must be the caller's (404). */
export async function listOwnSessions(ctx: SessionsContext, filter: SessionFilter) {
  if (typeof filter.folderId === 'number' && !(await findOwnFolder(ctx.em, filter.ownerId, filter.folderId)))
    throw new FolderNotFoundError();
  return listSessionsWithFacts(ctx.em, filter);
}
