import { demoteOtherModerators, lockParticipant } from '../db/participant.repository.ts';
import { deleteOpenVotesOf } from '../db/vote.repository.ts';
import type { ParticipantRole } from '../domain/vote-rules.ts';
import { ParticipantNotFoundError, SessionArchivedError } from '../errors.ts';
import type { SessionsContext } from './shared/context.ts';
import { findOwnedSession } from './shared/find-session.ts';
import { revealIfComplete } from './shared/auto-reveal.ts';
import { announce } from './shared/room-history.ts';

/**
 * The owner changes a participant's role. Making someone moderator hands the role over (the other
 * moderators become participants); an observer does not vote, so its open votes go. Each change of a
 * role, a moderator's handed-over one included, is announced as participant.updated (the room shows
 * it; the round may now be complete).
 */
export async function changeParticipantRole(
  ctx: SessionsContext,
  code: string,
  userId: string,
  participantId: number,
  role: ParticipantRole,
) {
  const { session, participant, changed } = await ctx.em.transactional(async (tx) => {
    // Under the session's row lock: an archived session is read-only (409), its room included.
    const session = await findOwnedSession(tx, code, userId, { locked: true });
    if (session.status === 'archived') throw new SessionArchivedError('its room');
    const found = await lockParticipant(tx, session.id, participantId);
    if (!found) throw new ParticipantNotFoundError();
    const previous = found.role as ParticipantRole;
    if (previous === role) return { session, participant: found, changed: false };
    found.role = role;
    const demoted = role === 'moderator' ? await demoteOtherModerators(tx, session.id, found.id) : [];
    if (role === 'observer') await deleteOpenVotesOf(tx, found.id);
    const updated = (p: { id: number; name: string }, to: ParticipantRole, from: ParticipantRole) =>
      announce(tx, 'participant.updated', {
        session_id: session.id,
        session_code: session.code,
        participant: { id: p.id, name: p.name, role: to },
        previous_role: from,
      });
    updated(found, role, previous);
    for (const p of demoted) updated(p, 'participant', 'moderator');
    return { session, participant: found, changed: true };
  });
  if (changed) ctx.publish();
  // Someone who no longer votes may have been the one the round waited for.
  if (changed && session.autoReveal) await revealIfComplete(ctx, session.id);
  return participant;
}
