import { cardNumber } from '@pp/contracts';
/** Cards that are not an estimate: they say "I cannot tell" or "a break". */
const NOT_ESTIMATES = new Set(['?', 'coffee', '☕', 'pass', '∞', 'infinity', 'break']);

export const isEstimate = (card: string) => !NOT_ESTIMATES.has(card.trim().toLowerCase());

/** A card's number, a decimal comma and a half (½, 1½) read too. */
const numberOf = (card: string) => cardNumber(card.replace(',', '.').replace('½', '.5'));

/** What the functions below need to know of a deck, worked out once per deck (decks are not changed). */
interface DeckFacts {
  cards: readonly string[];
  /** The estimate cards in lower case, for finding a card's place. */
  lowered: readonly string[];
  /** Every estimate card is a number: estimates compare by value, not by place. */
  numeric: boolean;
}
const facts = new WeakMap<readonly string[], DeckFacts>();

function factsOf(deck: readonly string[]): DeckFacts {
  let known = facts.get(deck);
  if (!known) {
    const cards = deck.filter(isEstimate);
    known = {
      cards,
      lowered: cards.map((c) => c.toLowerCase()),
      numeric: cards.length > 0 && cards.every((c) => numberOf(c) !== undefined),
    };
    facts.set(deck, known);
  }
  return known;
}

/** The deck's estimate cards, in deck order. */
export const estimateCards = (deck: readonly string[]): string[] => [...factsOf(deck).cards];

/** Whether every estimate card is a number (then estimates compare by value, not by place). */
export const isNumericDeck = (deck: readonly string[]) => factsOf(deck).numeric;

/**
 * Where an estimate sits on the deck, as a number that can be averaged: its value on a numeric deck,
 * else its place among the estimate cards; undefined for a card this deck cannot place.
 */
export function scaleOf(card: string | null, deck: readonly string[]): number | undefined {
  if (card === null || !isEstimate(card)) return undefined;
  const { numeric, lowered } = factsOf(deck);
  if (numeric) return numberOf(card);
  const at = lowered.indexOf(card.trim().toLowerCase());
  return at < 0 ? undefined : at;
}

/** The card nearest to a point of the scale (by ratio on a numeric deck: 8 is nearer 10 than 13 is). */
export function snapToDeck(point: number, deck: readonly string[]): string | null {
  const { cards, numeric } = factsOf(deck);
  if (cards.length === 0) return null;
  if (!numeric) return cards[Math.max(0, Math.min(cards.length - 1, Math.round(point)))]!;
  const distance = (value: number) =>
    point <= 0 || value <= 0 ? Math.abs(point - value) * 10 : Math.abs(Math.log(point / value));
  return cards.reduce((best, c) => (distance(numberOf(c)!) < distance(numberOf(best)!) ? c : best));
}

/** How many cards apart two estimates are on this deck (0 for the same card). */
export function stepsBetween(a: string, b: string, deck: readonly string[]): number | undefined {
  const { lowered } = factsOf(deck);
  const place = (card: string) => {
    const exact = lowered.indexOf(card.trim().toLowerCase());
    if (exact >= 0) return exact;
    const value = scaleOf(card, deck);
    const snapped = value === undefined ? null : snapToDeck(value, deck);
    return snapped === null ? -1 : lowered.indexOf(snapped.toLowerCase());
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
