import type { SessionsContext } from './shared/context.ts';
import { discardSessions } from './shared/provisional.ts';

/**
 * Sessions made from a template that stayed provisional for longer than any request takes (its
 * process stopped before the stories were in, or before it could discard them) are taken back.
 */
export async function discardStaleSessions(
  ctx: Pick<SessionsContext, 'em' | 'now' | 'publish'>,
  ttlMs: number,
) {
  const gone = await discardSessions(ctx.em, { before: new Date(ctx.now().getTime() - ttlMs) });
  if (gone.length > 0) ctx.publish();
  return gone;
}
