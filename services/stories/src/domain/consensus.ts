/** Cards that say "no estimate": they never count towards the consensus. */
export const NON_COUNTING_CARDS: ReadonlySet<string> = new Set(['?', 'coffee']);

/**
 * The final estimate of a round, over the session's deck (the card values in deck order).
 *
 * - `?` and `coffee` do not count, nor does a value that is not a card of the deck;
 * - the unique most frequent card wins;
 * - on a tie, the median of all counted votes ordered by the deck (for an even count, the upper of
 *   the two middle votes);
 * - no counted vote: null.
 *
 * So [1, 1, 2, 13, 13] gives "2": 1 and 13 tie, and the median of the five votes is 2.
 */
export function consensus(deck: readonly string[], votes: readonly string[]): string | null {
  const rank = new Map<string, number>();
  deck.forEach((card, index) => {
    if (!NON_COUNTING_CARDS.has(card) && !rank.has(card)) rank.set(card, index);
  });
  const counted = votes.filter((v) => rank.has(v));
  if (counted.length === 0) return null;

  const mode = uniqueMode(counted);
  if (mode !== null) return mode;

  const ordered = [...counted].sort((a, b) => rank.get(a)! - rank.get(b)!);
  return ordered[Math.floor(ordered.length / 2)]!;
}

/** The value that occurs more often than any other, or null when several share the top count. */
export function uniqueMode(values: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  let tied = false;
  for (const [value, count] of counts) {
    if (count > bestCount) {
      best = value;
      bestCount = count;
      tied = false;
    } else if (count === bestCount) {
      tied = true;
    }
  }
  return tied ? null : best;
}
