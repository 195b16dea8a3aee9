/**
 * Events: the live room clients and the webhook receiver against the room's whole history, read at the
 * end (the reference: one order, the event stream's).
 */
import type { ClientView, Delivery, Finding, RoomEvent, RoomState } from './observations.ts';

/** What every live room client must see, in the history's order, once each. */
export const FOLLOWED_TYPES: ReadonlySet<string> = new Set(['vote.cast', 'story.revealed']);

function duplicates(events: RoomEvent[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const e of events) (seen.has(e.id) ? twice : seen).add(e.id);
  return [...twice];
}

/**
 * A client that stayed connected or resumed with Last-Event-ID sees, from its first event on, exactly the
 * history's followed events: none missing, none twice, in the same order.
 */
function checkClient(client: ClientView, history: RoomEvent[]): Finding[] {
  const who = `room ${client.room}: client ${client.name}`;
  const findings: Finding[] = duplicates(client.events).map((id) => ({
    kind: 'duplicate-event' as const,
    detail: `${who} got event ${id} twice`,
  }));
  if (client.events.length === 0) return findings;
  const from = history.findIndex((e) => e.id === client.events[0]!.id);
  if (from < 0)
    return [
      ...findings,
      { kind: 'lost-event', detail: `${who} got ${client.events[0]!.id}, not in the history` },
    ];
  const expected = history.slice(from).filter((e) => FOLLOWED_TYPES.has(e.type));
  const got = client.events.filter((e) => FOLLOWED_TYPES.has(e.type));
  const gotIds = new Set(got.map((e) => e.id));
  const expectedIds = new Set(expected.map((e) => e.id));
  for (const e of expected)
    if (!gotIds.has(e.id)) findings.push({ kind: 'lost-event', detail: `${who} missed ${e.type} ${e.id}` });
  for (const e of got)
    if (!expectedIds.has(e.id))
      findings.push({ kind: 'lost-event', detail: `${who} got ${e.type} ${e.id}, not in the history` });
  const order = (ids: string[]) => ids.filter((id) => gotIds.has(id) && expectedIds.has(id));
  const inHistory = order(expected.map((e) => e.id));
  const inClient = [...new Set(order(got.map((e) => e.id)))];
  const at = inHistory.findIndex((id, i) => inClient[i] !== id);
  if (at >= 0)
    findings.push({
      kind: 'out-of-order',
      detail: `${who}: event ${inClient[at]} came where ${inHistory[at]} belongs`,
    });
  return findings;
}

/** Each reveal in the history reached the webhook receiver under exactly one webhook-id. */
function checkWebhooks(room: RoomState, deliveries: Delivery[]): Finding[] {
  const findings: Finding[] = [];
  for (const reveal of room.history.filter((e) => e.type === 'story.revealed')) {
    const storyId = reveal.data.story?.id;
    const ids = new Set(
      deliveries.filter((d) => d.type === 'story.revealed' && d.storyId === storyId).map((d) => d.webhookId),
    );
    if (ids.size === 0)
      findings.push({
        kind: 'lost-event',
        detail: `room ${room.code}: reveal of ${storyId} never reached the webhook`,
      });
    if (ids.size > 1)
      findings.push({
        kind: 'duplicate-event',
        detail: `room ${room.code}: reveal of ${storyId} reached the webhook as ${ids.size} deliveries`,
      });
  }
  return findings;
}

export function checkEvents(rooms: RoomState[], clients: ClientView[], deliveries: Delivery[]): Finding[] {
  return rooms.flatMap((room) => [
    ...duplicates(room.history).map((id) => ({
      kind: 'duplicate-event' as const,
      detail: `room ${room.code}: event ${id} twice in the history`,
    })),
    ...clients.filter((c) => c.room === room.code).flatMap((c) => checkClient(c, room.history)),
    ...checkWebhooks(room, deliveries),
  ]);
}
