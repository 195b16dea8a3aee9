import { sessionCodeOf } from '@pp/contracts';
import type { Identity } from '@pp/http';
import { findSessionWithFacts } from '../db/session.repository.ts';
import { SessionNotFoundError } from '../errors.ts';
import type { SessionsContext } from './shared/context.ts';

/** A session by code for anyone: the room's facts, and whether the caller owns it (the full record). */
export async function lookUpSession(ctx: SessionsContext, rawCode: string, identity: Identity | undefined) {
  const code = sessionCodeOf(rawCode);
  const found = code ? await findSessionWithFacts(ctx.em, code) : null;
  if (!found) throw new SessionNotFoundError();
  return { ...found, isOwner: identity?.kind === 'user' && identity.sub === found.session.ownerId };
}
