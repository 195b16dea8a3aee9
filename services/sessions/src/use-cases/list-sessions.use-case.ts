import { findOwnFolder } from '../db/folder.repository.ts';
import { listSessions, type SessionFilter } from '../db/session.repository.ts';
import { FolderNotFoundError } from '../errors.ts';
import type { SessionsContext } from './shared/context.ts';
import { sessionFacts } from './shared/session-facts.ts';

/** One page of the caller's sessions, each with its room facts. A folder must be the caller's (404). */
export async function listOwnSessions(ctx: SessionsContext, filter: SessionFilter) {
  if (typeof filter.folderId === 'number' && !(await findOwnFolder(ctx.em, filter.ownerId, filter.folderId)))
    throw new FolderNotFoundError();
  const [sessions, total] = await listSessions(ctx.em, filter);
  const facts = await sessionFacts(ctx.em, sessions);
  return { sessions: sessions.map((session) => ({ session, facts: facts.get(session.id)! })), total };
}
