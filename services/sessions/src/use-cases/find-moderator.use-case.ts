import type { SessionsContext } from './shared/context.ts';
import { moderatorOf } from './shared/find-session.ts';

/**
 * The room's moderator holding this participant token, for another unit that lets the moderator run
 * the round (the stories unit's reveal, reset and activate): its id and name, or null when the token
 * is no live participant's of the session, or a participant's who is not the moderator (any more).
 */
export async function findModerator(ctx: SessionsContext, sessionId: string, participantToken: string) {
  const moderator = await moderatorOf(ctx.em, sessionId, participantToken);
  return moderator ? { id: moderator.id, name: moderator.name } : null;
}
