import { characters } from '@pp/contracts';
import { z } from 'zod';

/** The bounds the built-in engine builds within, by construction (the schemas below state them). */
export const LIMITS = {
  /** Stories a draft may hold (the request's `count` is at most this). */
  drafts: 10,
  /** Stories a split may hold, and the fewest (a split into one is no split). */
  splitStories: { min: 2, max: 12 },
  criteria: 20,
  /** A line of text: a criterion, a message, a question, a reason. */
  line: 2_000,
  title: 200,
  text: 10_000,
  rationale: 4_000,
} as const;

/**
 * The shape of each kind of suggestion: what the built-in engine returns, what the API documents and
 * what a model's answer must match before anyone sees it (bounded everywhere: a model's answer is
 * untrusted input).
 */
const line = characters(LIMITS.line, { min: 1 });
const lines = (max: number) => z.array(line).max(max);
const storyId = z.string().max(64);

export const draftStory = z.object({
  title: characters(LIMITS.title, { min: 1 }),
  description: characters(LIMITS.text),
  acceptance_criteria: characters(LIMITS.text).meta({ description: 'Free text, one criterion a line' }),
});

export const summary = z.object({
  summary: characters(4_000, { min: 1 }),
  highlights: lines(20),
  risks: lines(20),
  next_steps: lines(20),
});

export const invest = z.object({
  independent: z.boolean(),
  negotiable: z.boolean(),
  valuable: z.boolean(),
  estimable: z.boolean(),
  small: z.boolean(),
  testable: z.boolean(),
});

export const analysis = z.object({
  story_id: storyId,
  clarity_score: z.number().int().min(0).max(100),
  issues: z.array(z.object({ kind: characters(60, { min: 1 }), message: line })).max(30),
  questions: lines(20),
  invest,
});

export const drafts = z.object({ stories: z.array(draftStory).max(LIMITS.drafts) });

export const improvement = z.object({
  story_id: storyId,
  title: characters(LIMITS.title, { min: 1 }),
  description: characters(LIMITS.text),
  rationale: lines(20),
});

/** A criterion in Given/When/Then form (checked: a model's answer without the three parts is refused). */
const gwt = line.refine(
  (c) => /\bgiven\b/i.test(c) && /\bwhen\b/i.test(c) && /\bthen\b/i.test(c),
  'must be a Given/When/Then criterion',
);

export const criteria = z.object({
  story_id: storyId,
  acceptance_criteria: z.array(gwt).min(1).max(LIMITS.criteria),
});

export const split = z.object({
  story_id: storyId,
  stories: z.array(draftStory).min(LIMITS.splitStories.min).max(LIMITS.splitStories.max),
  rationale: characters(LIMITS.rationale, { min: 1 }),
});

export const similarStory = z.object({
  story_id: storyId,
  title: characters(200),
  final_estimate: characters(32).nullable(),
  similarity: z.number().min(0).max(1),
});

export const estimate = z.object({
  story_id: storyId,
  suggested_estimate: characters(32).nullable(),
  confidence: z.number().min(0).max(1),
  similar_stories: z.array(similarStory).max(10),
  reasoning: lines(20),
});

const storyAgreement = z.object({
  story_id: storyId,
  title: characters(200),
  final_estimate: characters(32).nullable(),
  votes: z.number().int().min(0),
  agreement: z.number().min(0).max(1).nullable(),
  lowest: characters(32).nullable(),
  highest: characters(32).nullable(),
  spread: z.number().int().min(0),
});

export const report = z.object({
  session_id: storyId,
  totals: z.object({
    stories: z.number().int().min(0),
    revealed: z.number().int().min(0),
    estimated: z.number().int().min(0),
    unestimated: z.number().int().min(0),
    votes: z.number().int().min(0),
    points: z.number().nullable(),
  }),
  agreement: z.object({
    average: z.number().min(0).max(1).nullable(),
    unanimous: z.number().int().min(0),
    wide_spread: z.number().int().min(0),
    by_story: z.array(storyAgreement),
  }),
  outliers: z.array(
    z.object({
      story_id: storyId,
      title: characters(200),
      vote: characters(32),
      final_estimate: characters(32),
      steps: z.number().int().min(0),
    }),
  ),
  recommendations: lines(30),
});

export const suggestionSchemas = {
  summary,
  'analyze-current-story': analysis,
  'draft-stories': drafts,
  'improve-current-story': improvement,
  'generate-acceptance-criteria': criteria,
  'split-current-story': split,
  'estimate-assistant': estimate,
  'estimation-report': report,
} as const;

export type SuggestionKind = keyof typeof suggestionSchemas;
export type Suggestion<K extends SuggestionKind> = z.infer<(typeof suggestionSchemas)[K]>;
