import { atMost } from '@pp/async';
import type { SessionsContext } from './context.ts';

/** How long an answer waits for the stories unit's reveal before it goes without it. */
const ASK_AT_MOST_MS = 2_000;

/**
 * A change here may have completed the round of an auto-reveal session (the last vote, a voter gone
 * or made an observer, auto-reveal switched on): the stories unit, which owns reveals, reveals it
 * before this answers, so that the client's next request sees the revealed story and the next one
 * open. The change is committed already; if the stories unit cannot be reached (or takes more than
 * 2 s), the answer goes as it is, and the events that say the same make it reveal a moment later.
 */
export async function revealIfComplete(
  ctx: SessionsContext,
  sessionId: string,
  storyId?: string,
): Promise<void> {
  const asked = ctx.stories.revealIfComplete(sessionId, storyId).catch((err: unknown) => {
    ctx.logger.warn({ err, session_id: sessionId }, 'auto-reveal left to the events');
  });
  // A stories unit that is slow to answer holds the answer back at most this long (the change is made).
  await atMost(ASK_AT_MOST_MS, asked, undefined);
}
