import type { SessionsContext } from './context.ts';

/**
 * A change here may have completed the round of an auto-reveal session (the last vote, a voter gone
 * or made an observer, auto-reveal switched on): the stories unit, which owns reveals, reveals it
 * before this answers, so that the client's next request sees the revealed story and the next one
 * open. The change is committed already; if the stories unit cannot be reached, the events that say
 * the same make it reveal a moment later, and the answer goes as it is.
 */
export async function revealIfComplete(
  ctx: SessionsContext,
  sessionId: string,
  storyId?: string,
): Promise<void> {
  try {
    await ctx.stories.revealIfComplete(sessionId, storyId);
  } catch (err) {
    ctx.logger.warn({ err, session_id: sessionId }, 'auto-reveal left to the events');
  }
}
