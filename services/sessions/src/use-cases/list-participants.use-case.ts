import { listParticipants } from '../db/participant.repository.ts';
import type { SessionsContext } from './shared/context.ts';
import { findSession } from './shared/find-session.ts';

/** Who is in the room (never their tokens, never their votes). */
export async function listSessionParticipants(ctx: SessionsContext, code: string) {
  const session = await findSession(ctx.em, code);
  return listParticipants(ctx.em, session.id);
}
