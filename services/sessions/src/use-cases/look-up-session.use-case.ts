import type { Identity } from '@pp/http';
import type { SessionsContext } from './context.ts';
import { findSession } from './find-session.ts';
import { factsOf } from './session-facts.ts';

/** A session by code for anyone: the room's facts, and whether the caller owns it (the full record). */
export async function lookUpSession(ctx: SessionsContext, code: string, identity: Identity | undefined) {
  const session = await findSession(ctx.em, code);
  return {
    session,
    facts: await factsOf(ctx.em, session),
    isOwner: identity?.kind === 'user' && identity.sub === session.ownerId,
  };
}
