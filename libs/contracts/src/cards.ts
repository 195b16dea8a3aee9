/**
 * A card read as a number: written as people write one (3, 0.5, -1, .5), nothing else. A custom card
 * such as 0x10 or 1e3 is a label: read by Number() it would count 16 or a thousand (and two 1e308 cards
 * would add up to Infinity).
 */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** The card's number, or undefined when the card is not one. */
export const cardNumber = (card: string): number | undefined =>
  DECIMAL.test(card.trim()) ? Number(card.trim()) : undefined;
