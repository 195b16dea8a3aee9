import type { EventEnvelope } from '@pp/contracts';
import { addEventDeliveries } from '../db/delivery.repository.ts';
import { keepSessionOwner, sessionOwnerById, type SessionOwner } from '../db/session-owner.repository.ts';
import { payloadOf } from '../domain/payload.ts';
import type { WebhooksContext } from './shared/context.ts';

interface SessionData {
  session?: { id: string; code: string; owner_id: string };
  session_id?: string;
}

/**
 * Owners by session, as this process has learnt them: a session's owner never changes, so what was
 * learnt once holds (every event of a busy room would otherwise read or write the read model).
 * Bounded: forgotten all at once when full, and learnt again from the read model.
 */
const learnt = new Map<string, string>();
const LEARNT_KEPT = 50_000;

async function learn(ctx: WebhooksContext, owner: SessionOwner) {
  if (learnt.get(owner.sessionId) === owner.ownerId) return;
  await keepSessionOwner(ctx.em, owner);
  if (learnt.size >= LEARNT_KEPT) learnt.clear();
  learnt.set(owner.sessionId, owner.ownerId);
}

/** The session's owner, from the read model or, for a session whose events are late, from the sessions unit. */
async function ownerOf(ctx: WebhooksContext, sessionId: string): Promise<string | undefined> {
  const remembered = learnt.get(sessionId);
  if (remembered) return remembered;
  const known = await sessionOwnerById(ctx.em, sessionId);
  if (known) {
    if (learnt.size >= LEARNT_KEPT) learnt.clear();
    learnt.set(sessionId, known.ownerId);
    return known.ownerId;
  }
  const found = await ctx.sessions.lookup(sessionId);
  if (!found) return undefined;
  await learn(ctx, { sessionId: found.id, code: found.code, ownerId: found.owner_id });
  return found.owner_id;
}

/**
 * A public event: a delivery for each webhook of the session's owner that wants it, sent at once.
 * Idempotent: the session read model is an upsert, and a webhook gets one delivery per event.
 */
export async function recordEvent(ctx: WebhooksContext, event: EventEnvelope<SessionData>): Promise<void> {
  const { session } = event.data;
  if (session) await learn(ctx, { sessionId: session.id, code: session.code, ownerId: session.owner_id });
  const sessionId = session?.id ?? event.data.session_id;
  if (!sessionId) return;
  const ownerId = session?.owner_id ?? (await ownerOf(ctx, sessionId));
  if (!ownerId) return;
  const payload = payloadOf(event.type, event.occurred_at, event.data as Record<string, unknown>);
  const added = await addEventDeliveries(ctx.em, {
    ownerId,
    sessionId,
    eventId: event.id,
    type: event.type,
    payload,
  });
  if (added > 0) ctx.deliverNow();
}
