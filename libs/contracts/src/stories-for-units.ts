import { z } from 'zod';
import { storyStatus } from './events.ts';

/**
 * What the stories unit tells another unit (the assistant) of a session's stories: each story's own
 * text, its place and status and, once revealed, its final estimate and the values voted (never who
 * voted what: no reader of this needs names). `ids` narrows it to some stories of the session, and
 * `status` (a comma-separated list) to stories in one of those states; given both, a story must match
 * both.
 */
export const storiesForUnitsQuery = z.strictObject({
  ids: z
    .string()
    .max(200 * 37)
    .transform((value) => value.split(',').filter(Boolean))
    .pipe(z.array(z.uuid()).max(200))
    .optional(),
  status: z
    .string()
    .max(40)
    .transform((value) => value.split(',').filter(Boolean))
    .pipe(z.array(storyStatus).max(3))
    .optional(),
});

export const storyForUnits = z.object({
  id: z.uuid(),
  title: z.string(),
  description: z.string(),
  acceptance_criteria: z.string(),
  status: storyStatus,
  position: z.number().int(),
  final_estimate: z.string().nullable(),
  revealed_at: z.iso.datetime({ offset: true }).nullable(),
  /** The values of the revealed votes, in the order they were kept; empty before the reveal. */
  votes: z.array(z.string()),
});
export type StoryForUnits = z.infer<typeof storyForUnits>;

export const storiesForUnits = z.object({ stories: z.array(storyForUnits) });

/**
 * A story as the room shows it (GET /sessions/{code}/stories), which the stories unit also gives the
 * sessions unit for the room's one read: votes (named as the session keeps them) only once revealed.
 * One schema for both paths: the API's document has it once, as the component `RoomStory`.
 */
export const roomStorySchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    description: z.string(),
    acceptance_criteria: z.string(),
    status: storyStatus.meta({
      description: '`voting` is the current story; `pending` ones wait in position order',
    }),
    position: z.number().int(),
    final_estimate: z.string().nullable(),
    votes: z
      .array(
        z.object({
          participant: z.object({
            id: z.number().int().nullable(),
            name: z
              .string()
              .nullable()
              .meta({ description: "null unless the session's record_vote_names is on" }),
          }),
          value: z.string(),
        }),
      )
      .nullable()
      .meta({ description: 'Only once revealed; names only when the session keeps them' }),
  })
  .meta({
    id: 'RoomStory',
    description: "A story as the room shows it: the room's list of stories and its one read",
  });
export type RoomStory = z.infer<typeof roomStorySchema>;
