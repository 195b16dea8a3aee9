import { sessionCodeOf, type SessionSnapshot } from '@pp/contracts';
import { NotOwnerError } from '@pp/http';
import { SessionNotFoundError } from '../../errors.ts';
import type { IntegrationsContext } from './context.ts';

/** The session of a code, asked of the sessions unit (current), for its owner only: 404, then 403. */
export async function ownedSession(
  ctx: IntegrationsContext,
  userId: string,
  code: string,
): Promise<SessionSnapshot> {
  const known = sessionCodeOf(code);
  if (!known) throw new SessionNotFoundError();
  const session = await ctx.units.session(known);
  if (!session) throw new SessionNotFoundError();
  if (session.owner_id !== userId) throw new NotOwnerError('session');
  return session;
}
