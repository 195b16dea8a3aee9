/**
 * Keyboard play: what the keys typed so far pick in a deck. A deck of numbers is played by typing a
 * card's value (`1` `3` for 13, `0` `.` `5` for 0.5); a deck without numbers (t-shirt sizes) by a
 * card's place, 1 to 9; `?` and `c` pick the question card and the coffee card.
 */
export interface KeyPick {
  /** The card picked now, if any. */
  card: string | undefined;
  /** The keys to keep, when a longer value may still come (`1` may become `13`). */
  pending: string;
}

export const isCardKey = (key: string) => /^[0-9.?cC]$/.test(key);

export function pickByKeys(deck: readonly string[], typed: string): KeyPick {
  if (typed === '?') return { card: deck.includes('?') ? '?' : undefined, pending: '' };
  if (typed.toLowerCase() === 'c')
    return { card: deck.includes('coffee') ? 'coffee' : undefined, pending: '' };
  const exact = deck.find((c) => c === typed);
  const longer = deck.some((c) => c !== typed && c.startsWith(typed));
  if (exact !== undefined) return { card: exact, pending: longer ? typed : '' };
  if (longer) return { card: undefined, pending: typed };
  const numbers = deck.some((c) => /^\d/.test(c));
  if (!numbers && /^[1-9]$/.test(typed)) return { card: deck[Number(typed) - 1], pending: '' };
  return { card: undefined, pending: '' };
}
