import { analyse, type AnalysedStory } from './analytics.ts';

const DECK = ['0', '0.5', '1', '2', '3', '5', '8', '13', '20', '40', '100', '?', 'coffee'];
const vote = (name: string | null, value: string) => ({ participant: { id: null, name }, value });
const story = (
  id: string,
  final: string | null,
  at: string,
  votes: AnalysedStory['votes'],
): AnalysedStory => ({
  id,
  title: `Story ${id}`,
  status: 'revealed',
  final_estimate: final,
  revealed_at: at,
  votes,
});

describe('session analytics', () => {
  const stories: AnalysedStory[] = [
    story('b', '8', '2026-01-01T10:05:00.000Z', [vote('Ann', '8'), vote('Bob', '3'), vote('Cy', '?')]),
    story('a', '5', '2026-01-01T10:00:00.000Z', [vote('Ann', '5'), vote('Bob', '5'), vote('Cy', '13')]),
    story('c', null, '2026-01-01T10:10:00.000Z', [vote('Ann', 'coffee')]),
    { id: 'd', title: 'Open', status: 'voting', final_estimate: null, revealed_at: null, votes: [] },
  ];
  const result = analyse(DECK, stories);

  it('counts final estimates and counted votes in deck order', () => {
    expect(result.distribution).toEqual([
      { value: '5', count: 1 },
      { value: '8', count: 1 },
    ]);
    expect(result.vote_distribution).toEqual([
      { value: '3', count: 1 },
      { value: '5', count: 2 },
      { value: '8', count: 1 },
      { value: '13', count: 1 },
    ]);
  });

  it('lists votes two or more deck positions from the final estimate as outliers', () => {
    expect(result.outliers).toEqual([
      {
        story_id: 'a',
        title: 'Story a',
        participant: { name: 'Cy' },
        value: '13',
        final_estimate: '5',
        distance: 2,
      },
      {
        story_id: 'b',
        title: 'Story b',
        participant: { name: 'Bob' },
        value: '3',
        final_estimate: '8',
        distance: 2,
      },
    ]);
  });

  it('gives the history in reveal order with the share of counted votes that agree', () => {
    expect(result.history.map((h) => [h.story_id, h.agreement])).toEqual([
      ['a', 2 / 3],
      ['b', 1 / 2],
      ['c', null],
    ]);
    expect(result.totals).toEqual({ stories: 4, revealed: 3, points: 13 });
  });

  it('sums as points only the final estimates written as decimal numbers, so the sum is always a number', () => {
    const deck = ['1e308', '0x10', '.5', '+2', '-1', '3', '?'];
    const revealed = deck.map((card, i) => story(`s${i}`, card, `2026-01-01T10:0${i}:00.000Z`, []));
    const twice = [...revealed, story('again', '1e308', '2026-01-01T11:00:00.000Z', [])];
    expect(analyse(deck, twice).totals.points).toBe(0.5 + 2 - 1 + 3);
  });
});

describe('session analytics: points', () => {
  const revealed = (id: string, final: string) => story(id, final, `2026-01-01T10:0${id}:00.000Z`, []);

  it('adds up only the estimates written as decimal numbers, to the digits they were written with', () => {
    const deck = ['0.1', '0.2', '0x10', '1e3', 'Infinity', ' 5', '8', '?'];
    const finals = ['0.1', '0.2', '0x10', '1e3', 'Infinity', '8'];
    const result = analyse(
      deck,
      finals.map((final, i) => revealed(String(i), final)),
    );
    expect(result.totals.points).toBe(8.3);
    const tenths = analyse(deck, [revealed('1', '0.1'), revealed('2', '0.2')]);
    expect(tenths.totals.points).toBe(0.3);
  });
});
