import { defineEntity, p } from '@pp/db';

/**
 * The stories service's read model of a session, kept from session.* events (and from the sessions
 * service's internal lookup when an event has not arrived yet). Owned by the sessions service.
 */
const SessionViewSchema = defineEntity({
  name: 'SessionView',
  tableName: 'sessions',
  properties: {
    id: p.uuid().primary(),
    code: p.string(),
    ownerId: p.string(),
    name: p.string(),
    status: p.string(),
    votingSystem: p.string(),
    /** The card values in deck order: consensus ranks votes by it. */
    deck: p.json<string[]>(),
    recordVoteNames: p.boolean(),
    autoReveal: p.boolean(),
    votebyEnabled: p.boolean(),
    voteByAt: p.datetime().nullable(),
    /** The snapshot's own time: an older snapshot never overwrites a newer one. */
    updatedAt: p.datetime(),
  },
});
export class SessionView extends SessionViewSchema.class {}
SessionViewSchema.setClass(SessionView);

/** The read model's fields as plain data: an entity, a row mapped by hand, or a fresh snapshot. */
export type SessionRecord = Pick<SessionView, keyof (typeof SessionViewSchema)['meta']['properties']>;
