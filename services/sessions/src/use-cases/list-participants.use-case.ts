import { listParticipants, participantsPage } from '../db/participant.repository.ts';
import { connectedIn } from '../db/presence.repository.ts';
import type { SessionsContext } from './shared/context.ts';
import { findSession } from './shared/find-session.ts';

/** The page size when only `page` is given: the session list's. */
const DEFAULT_PER_PAGE = 15;

/**
 * Who is in the room (never their tokens, never their votes), and who of them is connected now, in joining order: the whole room, or
 * one page of it with the total when a page is asked for.
 */
export async function listSessionParticipants(
  ctx: SessionsContext,
  code: string,
  paging: { page?: number; perPage?: number } = {},
) {
  const session = await findSession(ctx.em, code);
  const connected = await connectedIn(ctx.em, session.id);
  if (paging.page === undefined && paging.perPage === undefined)
    return { participants: await listParticipants(ctx.em, session.id), connected, page: undefined };
  const page = paging.page ?? 1;
  const perPage = paging.perPage ?? DEFAULT_PER_PAGE;
  const { participants, total } = await participantsPage(ctx.em, session.id, page, perPage);
  return { participants, connected, page: { page, perPage, total } };
}
