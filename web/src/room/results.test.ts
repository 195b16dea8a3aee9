import { figure, roundFigures } from './results.ts';

const fib = ['0', '½', '1', '2', '3', '5', '8', '13', '?', 'coffee'];

describe('the figures beside the consensus', () => {
  it('gives the mean, the median, the agreement and the spread of the number cards', () => {
    const f = roundFigures(fib, ['5', '3', '8', '5', '?'], '5');
    expect(f).toEqual({
      counted: 4,
      agree: 2,
      agreement: 0.5,
      mean: 5.25,
      median: 5,
      spread: { low: '3', high: '8' },
      unanimous: false,
    });
    expect(roundFigures(fib, ['½', '2', '3', '13'], '3').median).toBe(2.5);
    expect(figure(5.25, 'en')).toBe('5.3');
    expect(figure(5.25, 'de')).toBe('5,3');
  });

  it('says when everyone agrees, leaving out the cards that do not count', () => {
    expect(roundFigures(fib, ['3', '3', 'coffee'], '3')).toMatchObject({ unanimous: true, agreement: 1 });
    expect(roundFigures(fib, ['3'], '3').unanimous).toBe(false);
  });

  it('has no mean for a T-shirt deck, but a spread in deck order, and nothing when no vote counts', () => {
    const shirts = ['XS', 'S', 'M', 'L', 'XL', '?'];
    expect(roundFigures(shirts, ['XL', 'S', 'M'], 'M')).toMatchObject({
      mean: null,
      median: null,
      spread: { low: 'S', high: 'XL' },
      agree: 1,
    });
    expect(roundFigures(shirts, ['?'], null)).toMatchObject({ counted: 0, agreement: null, spread: null });
  });
});
