import { defineEntity, p } from '@pp/db';
import type { StoryStatus } from '../../domain/story-queue.ts';

/** A vote as kept after reveal: the name (and id) only when the session records voter names. */
export interface StoredVote {
  participant: { id: number | null; name: string | null };
  value: string;
}

const StorySchema = defineEntity({
  name: 'Story',
  tableName: 'stories',
  properties: {
    id: p.uuid().primary(),
    sessionId: p.uuid(),
    title: p.string(),
    description: p.text(),
    acceptanceCriteria: p.text(),
    status: p.string().$type<StoryStatus>(),
    /** 1..n within the session, without gaps. */
    position: p.integer(),
    finalEstimate: p.string().nullable(),
    votes: p.json<StoredVote[]>().nullable(),
    revealedAt: p.datetime().nullable(),
    /** When the story last became the current one: the vote-by deadline reveals only rounds open before it. */
    votingStartedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export class Story extends StorySchema.class {}
StorySchema.setClass(Story);

/** A story's fields as plain data (what views and changes read): an entity, or a row mapped by hand. */
export type StoryRecord = Pick<Story, keyof (typeof StorySchema)['meta']['properties']>;
