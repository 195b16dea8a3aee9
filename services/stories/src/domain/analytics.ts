import { cardNumber } from '@pp/contracts';
import { NON_COUNTING_CARDS } from './consensus.ts';
import type { KeptVote } from './vote-names.ts';

export interface AnalysedStory {
  id: string;
  title: string;
  status: string;
  final_estimate: string | null;
  revealed_at: string | null;
  votes: KeptVote[];
}

const counts = (values: string[], rank: (v: string) => number) => {
  const byValue = new Map<string, number>();
  for (const v of values) byValue.set(v, (byValue.get(v) ?? 0) + 1);
  return [...byValue]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([value, count]) => ({ value, count }));
};

/** The sum of the estimates that are numbers, to as many decimals as they were written with (0.1 + 0.2 is 0.3). */
function points(estimates: string[]): number {
  const numbers = estimates.filter((e) => cardNumber(e) !== undefined);
  const decimals = Math.max(0, ...numbers.map((n) => n.split('.')[1]?.length ?? 0));
  return Number(numbers.reduce((sum, n) => sum + Number(n), 0).toFixed(decimals));
}

/**
 * Analytics of a session over its deck: distribution of final estimates and of
 * counted votes (deck order), outliers (votes two or more deck positions from the final estimate),
 * the reveal history with each round's agreement, and totals.
 */
export function analyse(deck: readonly string[], stories: readonly AnalysedStory[]) {
  const ranks = new Map<string, number>();
  for (const card of deck) if (!NON_COUNTING_CARDS.has(card) && !ranks.has(card)) ranks.set(card, ranks.size);
  const rank = (v: string) => ranks.get(v) ?? Number.MAX_SAFE_INTEGER;
  const counted = (votes: KeptVote[]) => votes.map((v) => v.value).filter((v) => ranks.has(v));

  const revealed = stories
    .filter((s) => s.status === 'revealed' && s.revealed_at !== null)
    .sort((a, b) => a.revealed_at!.localeCompare(b.revealed_at!));
  const estimates = revealed.map((s) => s.final_estimate).filter((e): e is string => e !== null);

  const outliers = revealed.flatMap((s) => {
    if (s.final_estimate === null || !ranks.has(s.final_estimate)) return [];
    const target = rank(s.final_estimate);
    return s.votes
      .filter((v) => ranks.has(v.value) && Math.abs(rank(v.value) - target) >= 2)
      .map((v) => ({
        story_id: s.id,
        title: s.title,
        participant: { name: v.participant.name },
        value: v.value,
        final_estimate: s.final_estimate,
        distance: Math.abs(rank(v.value) - target),
      }));
  });

  const history = revealed.map((s) => {
    const values = counted(s.votes);
    return {
      story_id: s.id,
      title: s.title,
      final_estimate: s.final_estimate,
      revealed_at: s.revealed_at,
      votes: s.votes.map((v) => ({ participant: { name: v.participant.name }, value: v.value })),
      agreement:
        values.length === 0 ? null : values.filter((v) => v === s.final_estimate).length / values.length,
    };
  });

  return {
    distribution: counts(estimates, rank),
    vote_distribution: counts(
      revealed.flatMap((s) => counted(s.votes)),
      rank,
    ),
    outliers,
    history,
    totals: { stories: stories.length, revealed: revealed.length, points: points(estimates) },
  };
}
