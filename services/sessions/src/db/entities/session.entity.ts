import { defineEntity, p } from '@pp/db';

const SessionSchema = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  properties: {
    id: p.uuid().primary(),
    code: p.string(),
    ownerId: p.string(),
    name: p.string(),
    description: p.text(),
    status: p.string(),
    workspaceId: p.integer().nullable(),
    folderId: p.integer().nullable(),
    votingSystem: p.string(),
    customDeckName: p.string().nullable(),
    customDeckValues: p.json<string[]>().nullable(),
    recordVoteNames: p.boolean(),
    votebyEnabled: p.boolean().fieldName('voteby_enabled'),
    voteByAt: p.datetime().nullable(),
    autoReveal: p.boolean(),
    requireParticipantToken: p.boolean(),
    /** The version of the last round command applied (commands not above it change nothing). */
    roundVersion: p.integer().default(0),
    /** Set while a session made from a template waits for its stories: not listed, discarded if left so. */
    provisionalSince: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export class Session extends SessionSchema.class {}
SessionSchema.setClass(Session);

/** A session's fields as plain data (what the views read): an entity, or a row the lookup maps itself. */
export type SessionRecord = Pick<Session, keyof (typeof SessionSchema)['meta']['properties']>;
