import { characters } from '@pp/contracts';
import { z } from 'zod';
import { urlInteger } from '@pp/http';
import { CSV_HEADER } from '../domain/export-rows.ts';

/** Request and response shapes of the stories API (payloads are the resource-named keys of the envelope). */
const isoDate = z.iso.datetime({ offset: true });

export const codeParams = z.object({
  code: z.string().max(64).meta({ description: 'The 6-character session code (case-insensitive)' }),
});
export const storyParams = z.object({ story: z.string().max(64).meta({ description: 'Story id (UUID)' }) });

const title = characters(200, { trim: true, min: 1 });
const longText = characters(10_000);

export const createStoryBody = z
  .strictObject({
    title,
    description: longText.optional(),
    acceptance_criteria: longText.optional().meta({ description: 'Free text, may contain line breaks' }),
  })
  .meta({ id: 'CreateStoryRequest' });

export const quickVoteBody = z
  .strictObject({
    title: title
      .optional()
      .meta({ description: 'The story\'s title; "Quick vote HH:MM" (UTC, when it starts) by default' }),
  })
  .meta({ id: 'QuickVoteRequest' });

export const updateStoryBody = z
  .strictObject({
    title: title.optional(),
    description: longText.optional(),
    acceptance_criteria: longText.optional(),
    position: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .optional()
      .meta({ description: 'New place in the queue (1 = first); the other stories close up around it' }),
  })
  .meta({
    id: 'UpdateStoryRequest',
    description: 'Any of the fields. `status` is not settable: reveal, reset and activate change it.',
  });

/** The session of an internal command, by id. */
export const internalSessionParams = z.object({ sessionId: z.uuid() });

/** How many of a session's latest story events another unit reads (its activity shows at most 200). */
export const storyHistoryQuery = z.object({
  limit: urlInteger(z.number().int().min(1).max(200).default(50)),
});

/** Which story may now be complete: the one named, or else the session's current one. */
export const autoRevealBody = z.strictObject({ story_id: z.uuid().optional() });

/**
 * A batch of stories another unit adds to a session, in order (an import, a template): the ids are the
 * caller's, so a retried batch adds only what is not there yet and answers the same stories.
 */
export const addStoriesBody = z.strictObject({
  stories: z
    .array(
      z.strictObject({
        id: z.uuid(),
        title,
        description: longText.optional(),
        acceptance_criteria: longText.optional(),
      }),
    )
    .min(1)
    .max(100),
});

export const exportQuery = z.object({
  format: z.enum(['csv', 'json']).default('csv').meta({
    description: 'csv (default): the answer is `text/csv`; json: the envelope, `application/json`',
  }),
});

const storyStatus = z
  .enum(['pending', 'voting', 'revealed'])
  .meta({ description: '`voting` is the current story; `pending` ones wait in position order' });

export const vote = z
  .object({
    participant: z.object({
      id: z.number().int().nullable(),
      name: z.string().nullable().meta({ description: "null unless the session's record_vote_names is on" }),
    }),
    value: z.string(),
  })
  .meta({ id: 'RevealedVote' });

export const namedVote = z
  .object({ participant: z.object({ id: z.number().int(), name: z.string() }), value: z.string() })
  .meta({ id: 'NamedVote' });

export const story = z
  .object({
    id: z.uuid(),
    session_id: z.uuid(),
    title: z.string(),
    description: z.string(),
    acceptance_criteria: z.string(),
    status: storyStatus,
    position: z.number().int(),
    final_estimate: z
      .string()
      .nullable()
      .meta({ description: 'Consensus computed at reveal (mode or median)' }),
    votes: z.array(vote).nullable().meta({ description: 'Only once revealed; null before' }),
    revealed_at: isoDate.nullable(),
    created_at: isoDate,
    updated_at: isoDate,
  })
  .meta({ id: 'Story' });

export const revealedStory = story
  .extend({ votes: z.array(namedVote).meta({ description: "The room's view: voters always named" }) })
  .meta({ id: 'RevealedStory' });

export const storySummary = z
  .object({ id: z.uuid(), title: z.string(), status: storyStatus, position: z.number().int() })
  .meta({ id: 'StorySummary' });

export const exportedStory = z
  .object({
    id: z.uuid(),
    position: z.number().int(),
    title: z.string(),
    description: z.string(),
    acceptance_criteria: z.string(),
    status: storyStatus,
    final_estimate: z.string().nullable(),
    revealed_at: isoDate.nullable(),
    votes: z.array(vote),
  })
  .meta({ id: 'ExportedStory' });

export const exportSession = z.object({ id: z.uuid(), code: z.string(), name: z.string() });

/** The export as CSV (RFC 4180, every field quoted, CRLF line ends). */
export const exportCsv = z.string().meta({
  description: `A header row (${CSV_HEADER.join(', ')}), then one row per story`,
});

const valueCount = z.object({ value: z.string(), count: z.number().int() });
const historyVote = z.object({ participant: z.object({ name: z.string().nullable() }), value: z.string() });

export const analytics = z
  .object({
    distribution: z
      .array(valueCount)
      .meta({ description: 'Final estimates of revealed stories, in deck order' }),
    vote_distribution: z.array(valueCount).meta({ description: 'Every counted vote (not ? or coffee)' }),
    outliers: z
      .array(
        z.object({
          story_id: z.uuid(),
          title: z.string(),
          participant: z.object({ name: z.string().nullable() }),
          value: z.string(),
          final_estimate: z.string().nullable(),
          distance: z.number().int().meta({ description: 'Deck positions from the final estimate (>= 2)' }),
        }),
      )
      .meta({ description: 'Votes two or more deck positions away from the final estimate' }),
    history: z
      .array(
        z.object({
          story_id: z.uuid(),
          title: z.string(),
          final_estimate: z.string().nullable(),
          revealed_at: isoDate,
          votes: z.array(historyVote),
          agreement: z.number().nullable().meta({
            description: 'Share (0..1) of counted votes equal to the final estimate; null without any',
          }),
        }),
      )
      .meta({ description: 'Revealed stories in reveal order; names per record_vote_names' }),
    totals: z.object({
      stories: z.number().int(),
      revealed: z.number().int(),
      points: z.number().meta({
        description:
          'Sum of the final estimates that are decimal numbers ("13", "0.5", "-1"; not "0x10" or "1e3"), to the decimals they are written with',
      }),
    }),
  })
  .meta({ id: 'SessionAnalytics' });
