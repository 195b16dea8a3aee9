import { lockParticipant } from '../db/participant.repository.ts';
import { deleteOpenVotesOf } from '../db/vote.repository.ts';
import { ParticipantNotFoundError, SessionArchivedError } from '../errors.ts';
import type { ParticipantRole } from '../domain/vote-rules.ts';
import type { SessionsContext } from './shared/context.ts';
import { findOwnedSession } from './shared/find-session.ts';
import { revealIfComplete } from './shared/auto-reveal.ts';
import { announce } from './shared/room-history.ts';

/**
 * The owner removes someone from the room: its votes on rounds not sealed yet go with it. The row
 * stays (marked removed) so that revealed rounds keep naming their voters. participant.left tells
 * the room, and the stories service (the round may now be complete). An archived session is
 * read-only (409): its open round keeps its votes. Checked under the session's row lock, so an
 * archive made at the same moment is either seen or comes after.
 */
export async function removeParticipant(
  ctx: SessionsContext,
  code: string,
  userId: string,
  participantId: number,
) {
  const { session, removed } = await ctx.em.transactional(async (tx) => {
    const session = await findOwnedSession(tx, code, userId, { locked: true });
    if (session.status === 'archived') throw new SessionArchivedError('its room');
    const participant = await lockParticipant(tx, session.id, participantId);
    if (!participant) throw new ParticipantNotFoundError();
    participant.removedAt = ctx.now();
    await deleteOpenVotesOf(tx, participant.id);
    announce(tx, 'participant.left', {
      session_id: session.id,
      session_code: session.code,
      participant: { id: participant.id, name: participant.name, role: participant.role as ParticipantRole },
    });
    return { session, removed: participant };
  });
  ctx.publish();
  // The one removed may have been the one the round waited for.
  if (session.autoReveal) await revealIfComplete(ctx, session.id);
  return removed;
}
