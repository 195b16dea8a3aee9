/**
 * What the results say beside the consensus: the mean and median of the number cards, how many of
 * the counted votes agree with the consensus, and how far the votes spread (over the deck's order,
 * so a T-shirt deck has a spread too). `?` and the coffee card count for none of it, as for the
 * consensus itself.
 */
export interface RoundFigures {
  /** Votes that count (not `?`, not coffee). */
  counted: number;
  /** Of those, how many are the consensus. */
  agree: number;
  /** agree / counted, 0..1; null when none counts or there is no consensus. */
  agreement: number | null;
  mean: number | null;
  median: number | null;
  /** The lowest and highest counted cards, in deck order; null when none counts. */
  spread: { low: string; high: string } | null;
  /** Every counted vote is the same card (two or more of them). */
  unanimous: boolean;
}

const NOT_COUNTED = new Set(['?', 'coffee', '☕']);

/** The number a card stands for, if it is one ("½" is 0.5). */
export function cardNumber(card: string): number | null {
  if (card === '½') return 0.5;
  return /^\d+(\.\d+)?$/.test(card) ? Number(card) : null;
}

export function roundFigures(deck: readonly string[], values: readonly string[], consensus: string | null) {
  const counted = values.filter((v) => !NOT_COUNTED.has(v));
  const numbers = counted
    .map(cardNumber)
    .filter((n): n is number => n !== null)
    .sort((a, b) => a - b);
  const mid = numbers.length >> 1;
  const median =
    numbers.length === 0
      ? null
      : numbers.length % 2
        ? numbers[mid]!
        : (numbers[mid - 1]! + numbers[mid]!) / 2;
  const mean = numbers.length === 0 ? null : numbers.reduce((a, b) => a + b, 0) / numbers.length;
  const agree = consensus === null ? 0 : counted.filter((v) => v === consensus).length;
  // Deck order; a card outside the deck (a deck changed since) by its number, after the deck.
  const rank = (v: string) => {
    const at = deck.indexOf(v);
    return at >= 0 ? at : deck.length + (cardNumber(v) ?? 0);
  };
  const ordered = [...counted].sort((a, b) => rank(a) - rank(b));
  return {
    counted: counted.length,
    agree,
    agreement: counted.length === 0 || consensus === null ? null : agree / counted.length,
    mean,
    median,
    spread: ordered.length ? { low: ordered[0]!, high: ordered.at(-1)! } : null,
    unanimous: counted.length >= 2 && counted.every((v) => v === counted[0]),
  } satisfies RoundFigures;
}

/** A figure as the room shows it: at most one decimal, in the page's language. */
export const figure = (n: number, locale: string) => n.toLocaleString(locale, { maximumFractionDigits: 1 });
