import { latestRoomMessages } from '../db/room-event.repository.ts';
import type { SessionsContext } from './shared/context.ts';
import { findOwnedSession } from './shared/find-session.ts';

/**
 * The owner reads what happened in the session lately: the live room's history (kept a day), oldest
 * first. Votes never show their value, as in the room.
 */
export async function listActivity(ctx: SessionsContext, code: string, userId: string, limit: number) {
  const session = await findOwnedSession(ctx.em, code, userId);
  return latestRoomMessages(ctx.em, session.id, limit);
}
