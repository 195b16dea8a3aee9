import { storyEventTypes } from './story-events.ts';

/**
 * The live room: which events the room sees, and what of them. vote.cast never
 * carries a value, so nothing here can give a vote away before its story is revealed.
 */
export const roomEventTypes = [
  'participant.joined',
  'participant.left',
  'participant.updated',
  'participant.presence',
  'vote.cast',
  'countdown.started',
  'countdown.ended',
  ...storyEventTypes,
  'session.updated',
] as const;
export type RoomEventType = (typeof roomEventTypes)[number];

export interface RoomMessage {
  /** The event's id: what a client sends back as Last-Event-ID. */
  id: string;
  type: RoomEventType;
  sessionId: string;
  data: Record<string, unknown>;
}

/**
 * A room message with its place in the bus's order (the event stream's sequence): live and replayed
 * messages follow that one order, so a reconnecting client gets exactly what came after its last one.
 */
export interface PlacedRoomMessage extends RoomMessage {
  position: number;
}

interface EventLike {
  id: string;
  type: string;
  occurred_at: string;
  data: unknown;
}

export const isRoomType = (type: string): type is RoomEventType =>
  (roomEventTypes as readonly string[]).includes(type);

/** The room's message for an event of the bus, or undefined when the room does not show it. */
export function toRoomMessage(event: EventLike): RoomMessage | undefined {
  if (!isRoomType(event.type)) return undefined;
  const {
    session_id,
    session_code: _code,
    record_vote_names: _names,
    ...rest
  } = event.data as Record<string, unknown>;
  let sessionId = session_id as string | undefined;
  if (event.type === 'session.updated') {
    const { owner_id: _owner, ...session } = rest.session as Record<string, unknown>;
    sessionId = session.id as string;
    rest.session = session;
  }
  if (!sessionId) return undefined;
  return {
    id: event.id,
    type: event.type,
    sessionId,
    data: { type: event.type, occurred_at: event.occurred_at, ...rest },
  };
}

/**
 * A place in the live room's order as a Last-Event-ID: what a room read gives to resume its stream
 * from (`at:` and the place), where an event id names the place of one event.
 */
export const streamPlace = (place: number) => `at:${place}`;

/** The place a Last-Event-ID of `streamPlace` names, or undefined for any other id. */
export function placeOfStreamId(id: string): number | undefined {
  const found = /^at:([0-9]{1,15})$/.exec(id);
  return found ? Number(found[1]) : undefined;
}
