import { defineEntity, p } from '@pp/db';

/** Someone in a session's room; the token that identifies them is kept only as a hash. */
const ParticipantSchema = defineEntity({
  name: 'Participant',
  tableName: 'participants',
  properties: {
    id: p.integer().primary(),
    sessionId: p.uuid(),
    userId: p.string().nullable(),
    name: p.string(),
    role: p.string(),
    tokenHash: p.string(),
    joinedAt: p.datetime(),
    removedAt: p.datetime().nullable(),
  },
});
export class Participant extends ParticipantSchema.class {}
ParticipantSchema.setClass(Participant);
