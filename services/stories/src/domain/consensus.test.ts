import { fc, test } from '@fast-check/jest';
import { consensus, uniqueMode } from './consensus.ts';

const FIBONACCI = ['0', '0.5', '1', '2', '3', '5', '8', '13', '20', '40', '100', '?', 'coffee'];
const TSHIRT = ['XS', 'S', 'M', 'L', 'XL', 'XXL', '?', 'coffee'];
const POWERS_OF_TWO = ['0', '1', '2', '4', '8', '16', '32', '64', '?', 'coffee'];

describe('consensus: the unique most frequent card, else the median in deck order', () => {
  it.each([
    [['1', '1', '2', '13', '13'], '2'],
    [['3', '5', '5'], '5'],
    [['3', '5'], '5'],
    [['1', '2', '3', '8'], '3'],
    [['?', 'coffee'], null],
    [[], null],
    [['8'], '8'],
    [['5', '?', 'coffee', '3'], '5'],
    [['0.5', '0.5', '100'], '0.5'],
  ])('on the fibonacci deck, %j gives %j', (votes, expected) => {
    expect(consensus(FIBONACCI, votes)).toBe(expected);
  });

  it('on the t-shirt deck, [XS, M, M] gives M and a tie takes the median in deck order', () => {
    expect(consensus(TSHIRT, ['XS', 'M', 'M'])).toBe('M');
    // alphabetically L < M < XL < XS, by the deck XS < M < L < XL: the upper middle of the deck order is L
    expect(consensus(TSHIRT, ['XL', 'XS', 'L', 'M'])).toBe('L');
  });

  it('orders a custom deck by the deck, not by number or alphabet', () => {
    const deck = ['tiny', 'big', 'huge', 'epic'];
    expect(consensus(deck, ['epic', 'tiny', 'huge'])).toBe('huge');
    expect(consensus(deck, ['epic', 'tiny'])).toBe('epic');
    expect(consensus(['10', '2', '1'], ['1', '2', '10'])).toBe('2');
  });

  it('does not count a question mark or coffee card even when the custom deck has one', () => {
    expect(consensus(['?', 'a', 'b'], ['?', '?', 'a'])).toBe('a');
  });

  it('ignores a value that is not a card of the deck', () => {
    expect(consensus(POWERS_OF_TWO, ['3', '3', '4'])).toBe('4');
    expect(consensus(POWERS_OF_TWO, ['3'])).toBeNull();
  });
});

describe('uniqueMode', () => {
  it('is the value seen most often, or null on a tie', () => {
    expect(uniqueMode(['a', 'b', 'a'])).toBe('a');
    expect(uniqueMode(['a', 'b'])).toBeNull();
    expect(uniqueMode([])).toBeNull();
  });
});

/** A deck of 2..30 unique cards (like a custom deck), sometimes with the non-counting cards. */
const deckArb = fc
  .tuple(
    fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 2, maxLength: 28 }),
    fc.boolean(),
  )
  .map(([cards, withSpecials]) =>
    withSpecials ? [...cards.filter((c) => c !== '?' && c !== 'coffee'), '?', 'coffee'] : cards,
  );
const deckAndVotes = deckArb.chain((deck) =>
  fc.tuple(fc.constant(deck), fc.array(fc.constantFrom(...deck), { maxLength: 60 })),
);

describe('consensus properties', () => {
  test.prop([deckAndVotes])('is always a counting card of the deck, or null', ([deck, votes]) => {
    const result = consensus(deck, votes);
    if (result !== null) {
      expect(deck).toContain(result);
      expect(['?', 'coffee']).not.toContain(result);
      expect(votes).toContain(result);
    }
  });

  test.prop([
    deckAndVotes.chain(([deck, votes]) =>
      fc.tuple(fc.constant(deck), fc.shuffledSubarray(votes, { minLength: votes.length })),
    ),
  ])('does not depend on the order of the votes', ([deck, shuffled]) => {
    const sorted = [...shuffled].sort();
    expect(consensus(deck, shuffled)).toBe(consensus(deck, sorted));
  });

  test.prop([deckAndVotes])(
    'equals the unique mode of the counted votes when there is one',
    ([deck, votes]) => {
      const counted = votes.filter((v) => v !== '?' && v !== 'coffee');
      const mode = uniqueMode(counted);
      if (mode !== null) expect(consensus(deck, votes)).toBe(mode);
    },
  );

  test.prop([deckAndVotes])('is null exactly when no vote counts', ([deck, votes]) => {
    const anyCounted = votes.some((v) => v !== '?' && v !== 'coffee');
    expect(consensus(deck, votes) === null).toBe(!anyCounted);
  });

  test.prop([deckArb, fc.nat()])('a unanimous round gives that card', (deck, n) => {
    const counting = deck.filter((c) => c !== '?' && c !== 'coffee');
    fc.pre(counting.length > 0);
    const card = counting[n % counting.length]!;
    expect(consensus(deck, [card, card, card])).toBe(card);
  });
});
