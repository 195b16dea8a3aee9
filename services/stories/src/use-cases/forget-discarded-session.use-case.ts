import { forgetSession } from '../db/session.repository.ts';
import type { StoriesContext } from './shared/context.ts';

/**
 * session.discarded: a session the sessions unit made from a template and took back (its stories could
 * not all be added in time). What this unit kept of it goes, stories added after all included; a
 * change still under way finds the session gone when it commits, and then 404 when it plans again.
 */
export async function forgetDiscardedSession(ctx: Pick<StoriesContext, 'em'>, sessionId: string) {
  await forgetSession(ctx.em, sessionId);
}
