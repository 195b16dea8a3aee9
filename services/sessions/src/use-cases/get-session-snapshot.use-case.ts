import { isUuid, sessionCodeOf } from '@pp/contracts';
import { findSessionByCode, findSessionById } from '../db/session.repository.ts';
import { SessionNotFoundError } from '../errors.ts';
import type { SessionsContext } from './shared/context.ts';
import { toSnapshot } from './shared/session-snapshot.ts';

/** For other units whose read model has not caught up yet: a session by id or code. */
export async function getSessionSnapshot(ctx: SessionsContext, codeOrId: string) {
  const code = isUuid(codeOrId) ? undefined : sessionCodeOf(codeOrId);
  const session = isUuid(codeOrId)
    ? await findSessionById(ctx.em, codeOrId)
    : code
      ? await findSessionByCode(ctx.em, code)
      : null;
  if (!session) throw new SessionNotFoundError();
  return toSnapshot(session);
}
