import { latestRoomMessages } from '../db/room-event.repository.ts';
import { toRoomMessage } from '../domain/room-events.ts';
import type { SessionsContext } from './shared/context.ts';
import { atMost } from '@pp/async';
import { findOwnedSession } from './shared/find-session.ts';

/**
 * How long the activity waits for the stories unit's history before it answers with the room's alone:
 * long enough for a busy stories unit (a second was not always, on a loaded machine), short of the
 * internal call's own timeout. An unreachable unit fails at once.
 */
const HISTORY_AT_MOST_MS = 3_000;
/** Comings and goings of the room's streams are the room's live state, not its history. */
const NOT_ACTIVITY = ['participant.presence'];

/**
 * The owner reads what happened in the session lately: the live room's history (kept a day, but who
 * connected and left), oldest first. Votes never show their value, as in the room. The room learns of story changes through
 * events, a moment after they were made; so the story events come from the stories unit, which wrote
 * them with each change, and a story added or revealed just before shows at once. When the stories
 * unit cannot be reached (or takes more than 3 s), the room's own history answers alone.
 */
export async function listActivity(ctx: SessionsContext, code: string, userId: string, limit: number) {
  const session = await findOwnedSession(ctx.em, code, userId);
  const asked = ctx.stories.storyHistory(session.id, limit).catch((err: unknown) => {
    ctx.logger.warn({ err, session_id: session.id }, 'activity without the latest story events');
    return [];
  });
  const [own, stories] = await Promise.all([
    latestRoomMessages(ctx.em, session.id, limit, NOT_ACTIVITY),
    atMost(HISTORY_AT_MOST_MS, asked, []),
  ]);
  const seen = new Set(own.map((m) => m.id));
  const fresh = stories.flatMap((event) => {
    const message = seen.has(event.id) ? undefined : toRoomMessage(event);
    return message
      ? [{ id: message.id, type: message.type, occurred_at: new Date(event.occurred_at), data: message.data }]
      : [];
  });
  if (fresh.length === 0) return own;
  return [...own, ...fresh].sort((a, b) => a.occurred_at.getTime() - b.occurred_at.getTime()).slice(-limit);
}
