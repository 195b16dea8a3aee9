import type { RoomController } from '@pp/http';
import { startCountdown as startRoundCountdown, type AtZero } from '../db/countdown.repository.ts';
import { SessionArchivedError, voteRefusalError } from '../errors.ts';
import type { RoundCountdownView } from './shared/session-facts.ts';
import type { SessionsContext } from './shared/context.ts';
import { findControlledSession } from './shared/find-session.ts';
import { announce } from './shared/room-history.ts';

/**
 * The owner (or the room's moderator) starts a countdown for the open round (or starts it again: the new one replaces it). It
 * is kept on the round, under the session's row lock and the round's, so whatever ends the round ends
 * it too; countdown.started tells the room, and the stories unit, which reveals the round at zero
 * when asked to (its deadline task, as for the vote-by deadline). 409 when no round is open.
 */
export async function startCountdown(
  ctx: SessionsContext,
  code: string,
  controller: RoomController,
  input: { seconds: number; at_zero: AtZero },
): Promise<RoundCountdownView> {
  const countdown = await ctx.em.transactional(async (tx) => {
    const session = await findControlledSession(tx, code, controller, { locked: true });
    if (session.status === 'archived') throw new SessionArchivedError('its room');
    const endsAt = new Date(ctx.now().getTime() + input.seconds * 1000);
    const storyId = await startRoundCountdown(tx, session.id, {
      endsAt,
      atZero: input.at_zero,
      seconds: input.seconds,
    });
    if (!storyId) throw voteRefusalError('no_open_story', []);
    const started = {
      story_id: storyId,
      ends_at: endsAt.toISOString(),
      seconds: input.seconds,
      at_zero: input.at_zero,
    };
    announce(tx, 'countdown.started', {
      session_id: session.id,
      session_code: session.code,
      countdown: started,
    });
    return started;
  });
  ctx.publish();
  return countdown;
}
