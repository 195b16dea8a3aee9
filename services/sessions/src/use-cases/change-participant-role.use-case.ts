import { demoteOtherModerators, lockParticipant } from '../db/participant.repository.ts';
import { deleteOpenVotesOf } from '../db/vote.repository.ts';
import type { ParticipantRole } from '../domain/vote-rules.ts';
import { ParticipantNotFoundError } from '../sessions.errors.ts';
import type { SessionsContext } from './context.ts';
import { findOwnedSession } from './find-session.ts';

/**
 * The owner changes a participant's role. Making someone moderator hands the role over (the other
 * moderators become participants); an observer does not vote, so its open votes go.
 */
export async function changeParticipantRole(
  ctx: SessionsContext,
  code: string,
  userId: string,
  participantId: number,
  role: ParticipantRole,
) {
  const session = await findOwnedSession(ctx.em, code, userId);
  return ctx.em.transactional(async (tx) => {
    const participant = await lockParticipant(tx, session.id, participantId);
    if (!participant) throw new ParticipantNotFoundError();
    if (participant.role === role) return participant;
    participant.role = role;
    if (role === 'moderator') await demoteOtherModerators(tx, session.id, participant.id);
    if (role === 'observer') await deleteOpenVotesOf(tx, participant.id);
    return participant;
  });
}
