import { lockParticipant } from '../db/participant.repository.ts';
import { deleteOpenVotesOf } from '../db/vote.repository.ts';
import { ParticipantNotFoundError } from '../errors.ts';
import type { ParticipantRole } from '../domain/vote-rules.ts';
import type { SessionsContext } from './shared/context.ts';
import { findOwnedSession } from './shared/find-session.ts';
import { revealIfComplete } from './shared/auto-reveal.ts';
import { announce } from './shared/room-history.ts';

/**
 * The owner removes someone from the room: its votes on rounds not sealed yet go with it. The row
 * stays (marked removed) so that revealed rounds keep naming their voters. participant.left tells
 * the room, and the stories service (the round may now be complete).
 */
export async function removeParticipant(
  ctx: SessionsContext,
  code: string,
  userId: string,
  participantId: number,
) {
  const session = await findOwnedSession(ctx.em, code, userId);
  const removed = await ctx.em.transactional(async (tx) => {
    const participant = await lockParticipant(tx, session.id, participantId);
    if (!participant) throw new ParticipantNotFoundError();
    participant.removedAt = ctx.now();
    await deleteOpenVotesOf(tx, participant.id);
    announce(tx, 'participant.left', {
      session_id: session.id,
      session_code: session.code,
      participant: { id: participant.id, name: participant.name, role: participant.role as ParticipantRole },
    });
    return participant;
  });
  ctx.publish();
  // The one removed may have been the one the round waited for.
  if (session.autoReveal) await revealIfComplete(ctx, session.id);
  return removed;
}
