import { eventEntities } from '@pp/events';
import { Participant } from './participant.entity.ts';
import { Session } from './session.entity.ts';

export { Participant, Session };
/** Stories (read model) and votes are reached with SQL only: the vote path and the upserts need it. */
export const entities = [Session, Participant, ...eventEntities];
