import {
  hasOpenStream,
  leftWithoutStream,
  lockPresence,
  presenceSubject,
  pruneStreams,
  setConnected,
  touchStreams,
  type Liveness,
} from '../db/presence.repository.ts';
import type { SessionsContext } from './shared/context.ts';
import { announce } from './shared/room-history.ts';

type PresenceContext = Pick<SessionsContext, 'em' | 'now' | 'publish'>;

/**
 * Participants announced as connected whose last stream closed more than the grace ago (or whose
 * replica stopped seeing it) are announced away (participant.presence, connected false). Each under
 * its presence lock and checked again there, so a stream opened meanwhile on any replica keeps it
 * connected, and of replicas sweeping at once only one announces it. The participants marked away.
 */
export async function markAway(ctx: PresenceContext, live: Liveness): Promise<number[]> {
  const away: number[] = [];
  for (const participantId of await leftWithoutStream(ctx.em, live)) {
    const marked = await ctx.em.transactional(async (tx) => {
      const subject = await presenceSubject(tx, participantId);
      if (!subject) return false;
      const { connected } = await lockPresence(tx, participantId, subject.session_id);
      if (!connected || (await hasOpenStream(tx, participantId, live))) return false;
      await setConnected(tx, participantId, false);
      announce(tx, 'participant.presence', {
        session_id: subject.session_id,
        session_code: subject.code,
        participant: { id: participantId, name: subject.name },
        connected: false,
      });
      return true;
    });
    if (marked) away.push(participantId);
  }
  if (away.length > 0) ctx.publish();
  return away;
}

/** This replica's open streams are seen again (they stay open however long the room lasts). */
export const keepStreamsSeen = (ctx: PresenceContext, streamIds: string[]) =>
  touchStreams(ctx.em, streamIds, ctx.now());

/** Streams closed or gone before `before` are let go. */
export const forgetOldStreams = (ctx: PresenceContext, before: Date) => pruneStreams(ctx.em, before);
