import { BoundedMap } from '@pp/collections';
import type { EventEnvelope } from '@pp/contracts';
import { addEventDeliveries, type EventDeliveries } from '../db/delivery.repository.ts';
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
 * Bounded: the entries learnt longest ago go first, and are learnt again from the read model.
 */
const learnt = new BoundedMap<string, string>(50_000);

async function learn(ctx: WebhooksContext, owner: SessionOwner) {
  if (learnt.get(owner.sessionId) === owner.ownerId) return;
  await keepSessionOwner(ctx.em, owner);
  learnt.set(owner.sessionId, owner.ownerId);
}

/** The session's owner, from the read model or, for a session whose events are late, from the sessions unit. */
async function ownerOf(ctx: WebhooksContext, sessionId: string): Promise<string | undefined> {
  const remembered = learnt.get(sessionId);
  if (remembered) return remembered;
  const known = await sessionOwnerById(ctx.em, sessionId);
  if (known) {
    learnt.set(sessionId, known.ownerId);
    return known.ownerId;
  }
  const found = await ctx.sessions.lookup(sessionId);
  if (!found) return undefined;
  await learn(ctx, { sessionId: found.id, code: found.code, ownerId: found.owner_id });
  return found.owner_id;
}

/** The deliveries an event makes, once its session's owner is known; undefined when it has no session. */
async function deliveriesOf(ctx: WebhooksContext, event: EventEnvelope<SessionData>) {
  const { session } = event.data;
  if (session) await learn(ctx, { sessionId: session.id, code: session.code, ownerId: session.owner_id });
  const sessionId = session?.id ?? event.data.session_id;
  if (!sessionId) return undefined;
  const ownerId = session?.owner_id ?? (await ownerOf(ctx, sessionId));
  if (!ownerId) return undefined;
  const payload = payloadOf(event.type, event.occurred_at, event.data as Record<string, unknown>);
  return { ownerId, sessionId, eventId: event.id, type: event.type, payload };
}

/**
 * Public events: a delivery for each webhook of the session's owner that wants the event, sent at
 * once; the events that arrived together are recorded in one statement. Idempotent: the session
 * read model is an upsert, and a webhook gets one delivery per event.
 */
export async function recordEvents(
  ctx: WebhooksContext,
  events: Array<EventEnvelope<SessionData>>,
): Promise<void> {
  const deliveries: EventDeliveries[] = [];
  for (const event of events) {
    const found = await deliveriesOf(ctx, event);
    if (found) deliveries.push(found);
  }
  if ((await addEventDeliveries(ctx.em, deliveries)) > 0) ctx.deliverNow();
}
