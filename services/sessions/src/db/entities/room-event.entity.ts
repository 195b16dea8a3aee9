import { defineEntity, p } from '@pp/db';

/**
 * What the live room showed: one row per event, in the order the rows were written (the table's
 * `seq`, filled by the database), for a client that reconnects and asks for what it missed.
 */
const RoomEventSchema = defineEntity({
  name: 'RoomEvent',
  tableName: 'room_events',
  properties: {
    eventId: p.uuid().primary(),
    sessionId: p.uuid(),
    type: p.string(),
    payload: p.json<Record<string, unknown>>(),
    occurredAt: p.datetime(),
  },
});
export class RoomEvent extends RoomEventSchema.class {}
RoomEventSchema.setClass(RoomEvent);
