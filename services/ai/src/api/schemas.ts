import { characters } from '@pp/contracts';
import { z } from 'zod';
import { LIMITS, suggestionSchemas, type SuggestionKind } from '../domain/suggestions.ts';

/** Request and response shapes of the assistant (payloads are the resource-named keys of the envelope). */
export const codeParams = z.object({
  code: z.string().max(64).meta({ description: 'The 6-character session code (case-insensitive)' }),
});

/** draft-stories drafts exactly `count`: no more than a draft may hold. */
export const MAX_COUNT = LIMITS.drafts;

export const suggestionBody = z
  .strictObject({
    story_id: z
      .uuid()
      .optional()
      .meta({ description: 'The story to work on; by default the current one (open for votes)' }),
    count: z.number().int().min(1).max(MAX_COUNT).optional().meta({
      description:
        'draft-stories: how many stories (default 3); generate-acceptance-criteria: at most this many criteria (default 6, never fewer than 2). Ignored elsewhere.',
    }),
    prompt: characters(2_000, { trim: true, min: 1 }).optional().meta({
      description:
        'Extra guidance for the model (content and tone only); for draft-stories, the brief when `text` is absent',
    }),
    text: characters(5_000, { trim: true, min: 1 })
      .optional()
      .meta({ description: 'draft-stories: the brief to draft stories from' }),
  })
  .meta({
    id: 'AiSuggestionRequest',
    description: 'Every field is optional (draft-stories needs a brief: `text` or `prompt`).',
  });

/** The answer of one kind: the suggestions, and the reminder that nothing was applied. */
export const suggestionPayload = (kind: SuggestionKind) =>
  z.object({
    suggestions: suggestionSchemas[kind],
    review_required: z.literal(true).meta({
      description: 'Always true: nothing was changed; apply a suggestion through the ordinary endpoints',
    }),
    provider: z.string().meta({ description: '"builtin", or the name of the model that answered' }),
    note: z
      .string()
      .optional()
      .meta({ description: 'Why the built-in engine answered although a model is configured' }),
  });
