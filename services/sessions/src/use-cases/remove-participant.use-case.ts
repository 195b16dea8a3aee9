import { lockParticipant } from '../db/participant.repository.ts';
import { deleteOpenVotesOf } from '../db/vote.repository.ts';
import { ParticipantNotFoundError } from '../sessions.errors.ts';
import type { SessionsContext } from './context.ts';
import { findOwnedSession } from './find-session.ts';

/**
 * The owner removes someone from the room: its votes on rounds not sealed yet go with it. The row
 * stays (marked removed) so that revealed rounds keep naming their voters.
 */
export async function removeParticipant(
  ctx: SessionsContext,
  code: string,
  userId: string,
  participantId: number,
) {
  const session = await findOwnedSession(ctx.em, code, userId);
  return ctx.em.transactional(async (tx) => {
    const participant = await lockParticipant(tx, session.id, participantId);
    if (!participant) throw new ParticipantNotFoundError();
    participant.removedAt = ctx.now();
    await deleteOpenVotesOf(tx, participant.id);
    return participant;
  });
}
