import { eventEntities } from '@pp/events';
import { Participant } from './participant.entity.ts';
import { RoomEvent } from './room-event.entity.ts';
import { Session, type SessionRecord } from './session.entity.ts';

export { Participant, RoomEvent, Session, type SessionRecord };
/** Stories (read model) and votes are reached with SQL only: the vote path and the upserts need it. */
export const entities = [Session, Participant, RoomEvent, ...eventEntities];
