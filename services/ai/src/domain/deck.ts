/** Cards that are not an estimate: they say "I cannot tell" or "a break". */
const NOT_ESTIMATES = new Set(['?', 'coffee', '☕', 'pass', '∞', 'infinity', 'break']);

export const isEstimate = (card: string) => !NOT_ESTIMATES.has(card.trim().toLowerCase());

/** The deck's estimate cards, in deck order. */
export const estimateCards = (deck: readonly string[]) => deck.filter(isEstimate);

const numberOf = (card: string) => {
  const value = Number(card.trim().replace(',', '.').replace('½', '0.5'));
  return Number.isFinite(value) ? value : undefined;
};

/** Whether every estimate card is a number (then estimates compare by value, not by place). */
export const isNumericDeck = (deck: readonly string[]) => {
  const cards = estimateCards(deck);
  return cards.length > 0 && cards.every((c) => numberOf(c) !== undefined);
};

/**
 * Where an estimate sits on the deck, as a number that can be averaged: its value on a numeric deck,
 * else its place among the estimate cards; undefined for a card this deck cannot place.
 */
export function scaleOf(card: string | null, deck: readonly string[]): number | undefined {
  if (card === null || !isEstimate(card)) return undefined;
  if (isNumericDeck(deck)) return numberOf(card);
  const at = estimateCards(deck).findIndex((c) => c.toLowerCase() === card.trim().toLowerCase());
  return at < 0 ? undefined : at;
}

/** The card nearest to a point of the scale (by ratio on a numeric deck: 8 is nearer 10 than 13 is). */
export function snapToDeck(point: number, deck: readonly string[]): string | null {
  const cards = estimateCards(deck);
  if (cards.length === 0) return null;
  if (!isNumericDeck(deck)) return cards[Math.max(0, Math.min(cards.length - 1, Math.round(point)))]!;
  const distance = (value: number) =>
    point <= 0 || value <= 0 ? Math.abs(point - value) * 10 : Math.abs(Math.log(point / value));
  return cards.reduce((best, c) => (distance(numberOf(c)!) < distance(numberOf(best)!) ? c : best));
}

/** How many cards apart two estimates are on this deck (0 for the same card). */
export function stepsBetween(a: string, b: string, deck: readonly string[]): number | undefined {
  const cards = estimateCards(deck).map((c) => c.toLowerCase());
  const place = (card: string) => {
    const exact = cards.indexOf(card.trim().toLowerCase());
    if (exact >= 0) return exact;
    const value = scaleOf(card, deck);
    const snapped = value === undefined ? null : snapToDeck(value, deck);
    return snapped === null ? -1 : cards.indexOf(snapped.toLowerCase());
  };
  const [x, y] = [place(a), place(b)];
  return x < 0 || y < 0 ? undefined : Math.abs(x - y);
}

/** The value at which half the weight lies on each side. */
export function weightedMedian(points: ReadonlyArray<{ value: number; weight: number }>): number | undefined {
  const sorted = [...points].sort((a, b) => a.value - b.value);
  const total = sorted.reduce((sum, p) => sum + p.weight, 0);
  let seen = 0;
  for (const p of sorted) {
    seen += p.weight;
    if (seen >= total / 2) return p.value;
  }
  return undefined;
}
