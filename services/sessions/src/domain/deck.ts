/** Decks of cards: the voting system names a fixed deck, or the custom one. */
export const votingSystems = ['fibonacci', 'tshirt', 'powers_of_two', 'custom'] as const;
export type VotingSystem = (typeof votingSystems)[number];

export const fixedDecks: Record<Exclude<VotingSystem, 'custom'>, readonly string[]> = {
  fibonacci: ['0', '0.5', '1', '2', '3', '5', '8', '13', '20', '40', '100', '?', 'coffee'],
  tshirt: ['XS', 'S', 'M', 'L', 'XL', 'XXL', '?', 'coffee'],
  powers_of_two: ['0', '1', '2', '4', '8', '16', '32', '64', '?', 'coffee'],
};

export const CUSTOM_DECK = { minCards: 2, maxCards: 30, maxCardLength: 12 } as const;

/** The cards of a session in deck order (what a vote must be one of, and what consensus orders by). */
export function deckOf(votingSystem: string, customValues: readonly string[] | null): string[] {
  if (votingSystem === 'custom') return [...(customValues ?? [])];
  return [...(fixedDecks[votingSystem as Exclude<VotingSystem, 'custom'>] ?? fixedDecks.fibonacci)];
}
