import { estimateCards, scaleOf, snapToDeck, weightedMedian } from './deck.ts';
import { buildCorpus, mostSimilar, termCounts, type Document } from './similarity.ts';
import { readStory, type StoryText } from './story-form.ts';
import { words } from './text.ts';

/** A revealed story of the owner's history, as the estimate assistant compares it. */
export interface PastStory {
  story_id: string;
  title: string;
  final_estimate: string | null;
}

/** The owner's history as the estimate assistant reads it: what is kept (built once), and what is not yet. */
export const historyOf = (
  kept: ReadonlyArray<Document<PastStory>>,
  extra: ReadonlyArray<Document<PastStory>> = [],
) => ({
  corpus: buildCorpus(kept),
  extra,
});

export type History = ReturnType<typeof historyOf>;

export interface SimilarStory {
  story_id: string;
  title: string;
  final_estimate: string | null;
  similarity: number;
}

export interface EstimateSuggestion {
  story_id: string;
  suggested_estimate: string | null;
  confidence: number;
  similar_stories: SimilarStory[];
  reasoning: string[];
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const MATCHES = 5;
const THRESHOLD = 0.15;

/** A rough size from the story's own scope, for a story nothing in the history resembles. */
function sizeGuess(story: StoryText, deck: readonly string[]) {
  const reading = readStory(story);
  const length = words(`${story.description} ${story.acceptance_criteria}`).length;
  const scope = Math.min(
    1,
    Math.max(0, reading.actions.length - 1) * 0.25 + length / 400 + reading.criteria.length / 12,
  );
  const cards = estimateCards(deck);
  // The lower half of the deck: without evidence, a guess should not look like a large number.
  const card = cards[Math.round(scope * (cards.length - 1) * 0.5)] ?? null;
  return {
    card,
    why: `${reading.actions.length || 1} feature(s), ${length} words, ${reading.criteria.length} acceptance criteria`,
  };
}

/**
 * Similar revealed stories of the owner by TF-IDF cosine over title, description and criteria; their
 * final estimates weighted by similarity give the suggestion (a weighted median, snapped to the
 * session's deck); the confidence grows with the similarity and the number of matches and falls with
 * the spread of their estimates.
 */
export function suggestEstimate(
  story: StoryText,
  history: History,
  deck: readonly string[],
): EstimateSuggestion {
  const size = history.corpus.items.length + history.extra.length;
  // One more than asked for: the story itself may be in the history (asked again after its reveal).
  const matches = mostSimilar(termCounts(story), history.corpus, {
    limit: MATCHES + 1,
    threshold: THRESHOLD,
    extra: history.extra,
  })
    .filter((m) => m.item.story_id !== story.id)
    .slice(0, MATCHES);
  const similar_stories = matches.map(({ item, similarity }) => ({
    story_id: item.story_id,
    title: item.title,
    final_estimate: item.final_estimate,
    similarity: round2(similarity),
  }));
  const placed = matches
    .map((m) => ({ m, value: scaleOf(m.item.final_estimate, deck) }))
    .filter((p): p is { m: (typeof matches)[number]; value: number } => p.value !== undefined);
  const reasoning: string[] = [];

  if (placed.length === 0) {
    const guess = sizeGuess(story, deck);
    reasoning.push(
      size === 0
        ? 'There is no revealed story in your history yet to compare with.'
        : `None of your ${size} revealed stories resembles it closely enough (similarity below ${THRESHOLD}) with an estimate on this deck.`,
      `A rough guess from the story's own scope (${guess.why}), in the lower half of the deck: low confidence.`,
    );
    return {
      story_id: story.id,
      suggested_estimate: guess.card,
      confidence: guess.card ? 0.1 : 0,
      similar_stories,
      reasoning,
    };
  }

  const median = weightedMedian(placed.map((p) => ({ value: p.value, weight: p.m.similarity })))!;
  const card = snapToDeck(median, deck);
  const best = placed[0]!.m;
  reasoning.push(
    `Most similar: "${best.item.title}" (similarity ${round2(best.similarity)}), estimated ${best.item.final_estimate}.`,
  );
  reasoning.push(
    `${placed.length} similar ${placed.length === 1 ? 'story was' : 'stories were'} estimated ${placed.map((p) => p.m.item.final_estimate).join(', ')}; weighted by similarity, the middle is ${card}.`,
  );
  const values = placed.map((p) => p.value);
  const low = snapToDeck(Math.min(...values), deck);
  const high = snapToDeck(Math.max(...values), deck);
  const cards = estimateCards(deck);
  const spread =
    low && high ? Math.abs(cards.indexOf(high) - cards.indexOf(low)) / Math.max(1, cards.length - 1) : 0;
  if (spread > 0)
    reasoning.push(
      `Their estimates range from ${low} to ${high}: the wider the range, the lower the confidence.`,
    );
  const strength = placed.reduce((s, p) => s + p.m.similarity, 0) / placed.length;
  const support = Math.min(1, placed.length / 3);
  const confidence = round2(Math.max(0, Math.min(1, strength * (1 - spread) * (0.5 + 0.5 * support) * 1.4)));
  if (placed.length < 3)
    reasoning.push('Few similar stories: treat it as a starting point for the discussion.');
  reasoning.push('Review it with the team: the votes decide.');
  return { story_id: story.id, suggested_estimate: card, confidence, similar_stories, reasoning };
}
