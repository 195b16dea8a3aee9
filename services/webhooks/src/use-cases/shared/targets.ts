import { checkOutboundUrl, OutboundRefusedError } from '@pp/outbound';
import { keepSessionOwner, sessionOwnerByCode } from '../../db/session-owner.repository.ts';
import { ALL_EVENTS } from '../../domain/payload.ts';
import { invalidField } from '../../errors.ts';
import type { WebhooksContext } from './context.ts';

/** The URL as it will be called, once the outbound guard accepts it; else a 422 naming `url`. */
export async function checkTargetUrl(ctx: WebhooksContext, url: string): Promise<string> {
  try {
    return (await checkOutboundUrl(url, ctx.outbound)).href;
  } catch (err) {
    if (err instanceof OutboundRefusedError) throw invalidField('url', `refused: ${err.message}`);
    throw err;
  }
}

/** `*` stands for every event; otherwise each type once. */
export const normaliseEvents = (events: string[]) =>
  events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(events)];

/**
 * The caller's session of this code, from the read model or, when its events have not arrived yet, the
 * sessions unit. Another account's session is refused exactly like an unknown code.
 */
export async function ownSession(ctx: WebhooksContext, ownerId: string, code: string) {
  let session = await sessionOwnerByCode(ctx.em, code);
  if (!session) {
    const found = await ctx.sessions.lookup(code);
    if (found) {
      session = { sessionId: found.id, code: found.code, ownerId: found.owner_id };
      await keepSessionOwner(ctx.em, session);
    }
  }
  if (!session || session.ownerId !== ownerId)
    throw invalidField('session_code', 'no session of yours has this code');
  return session;
}
