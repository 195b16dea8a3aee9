import type { RoomController } from '@pp/http';
import { stopCountdown as stopRoundCountdown } from '../db/countdown.repository.ts';
import type { SessionsContext } from './shared/context.ts';
import { findControlledSession } from './shared/find-session.ts';
import { announce } from './shared/room-history.ts';

/**
 * The owner (or the room's moderator) stops the open round's countdown before zero (or after a `close` one reached it: the round
 * takes votes again). countdown.ended tells the room; nothing changes, and nothing is announced, when
 * the round had none. Whether there was one.
 */
export async function stopCountdown(
  ctx: SessionsContext,
  code: string,
  controller: RoomController,
): Promise<boolean> {
  const stopped = await ctx.em.transactional(async (tx) => {
    const session = await findControlledSession(tx, code, controller, { locked: true });
    const storyId = await stopRoundCountdown(tx, session.id);
    if (storyId)
      announce(tx, 'countdown.ended', {
        session_id: session.id,
        session_code: session.code,
        story_id: storyId,
      });
    return storyId !== undefined;
  });
  if (stopped) ctx.publish();
  return stopped;
}
