import { listSessions, type SessionFilter } from '../db/session.repository.ts';
import type { SessionsContext } from './context.ts';
import { sessionFacts } from './session-facts.ts';

/** One page of the caller's sessions, each with its room facts. */
export async function listOwnSessions(ctx: SessionsContext, filter: SessionFilter) {
  const [sessions, total] = await listSessions(ctx.em, filter);
  const facts = await sessionFacts(ctx.em, sessions);
  return { sessions: sessions.map((session) => ({ session, facts: facts.get(session.id)! })), total };
}
