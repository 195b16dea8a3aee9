import { defineEntity, p } from '@pp/db';

/**
 * A revealed story of an owner's history (the estimate assistant compares new stories with these), kept
 * from story.* events with the story's text from the stories unit. Owned by the stories unit.
 */
const PastStorySchema = defineEntity({
  name: 'PastStory',
  tableName: 'past_stories',
  properties: {
    storyId: p.uuid().primary(),
    sessionId: p.uuid(),
    ownerId: p.string(),
    title: p.string(),
    finalEstimate: p.string().nullable(),
    /** The values voted at the reveal (no names). */
    votes: p.json<string[]>(),
    /** The story's terms and their counts, worked out once when kept (comparing then needs no text). */
    terms: p.json<Record<string, number>>(),
    /** The tokenizer that made `terms`: rows of an older one are worked out again when read. */
    termsVersion: p.integer(),
    revealedAt: p.datetime(),
    /** Taken anew at every change: an owner's history changed when its count or highest number did. */
    seq: p.bigint(),
  },
});
export class PastStory extends PastStorySchema.class {}
PastStorySchema.setClass(PastStory);
