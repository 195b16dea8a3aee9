import { stopCountdown as stopRoundCountdown } from '../db/countdown.repository.ts';
import type { SessionsContext } from './shared/context.ts';
import { findOwnedSession } from './shared/find-session.ts';
import { announce } from './shared/room-history.ts';

/**
 * The owner stops the open round's countdown before zero (or after a `close` one reached it: the round
 * takes votes again). countdown.ended tells the room; nothing changes, and nothing is announced, when
 * the round had none. Whether there was one.
 */
export async function stopCountdown(ctx: SessionsContext, code: string, userId: string): Promise<boolean> {
  const stopped = await ctx.em.transactional(async (tx) => {
    const session = await findOwnedSession(tx, code, userId, { locked: true });
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
