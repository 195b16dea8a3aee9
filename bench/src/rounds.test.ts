import { formatRow } from './load.ts';
import { inRounds, median, medianOfRounds } from './rounds.ts';

describe('rounds of a measurement', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('reports the median round of each figure, not the best, and sums the failures of every round', () => {
    const round = (rps: number, p99: number, failed: number) => ({
      name: 'vote',
      rps,
      p50: rps / 100,
      p99,
      count: 10,
      failed,
    });
    const combined = medianOfRounds([round(900, 30, 0), round(1500, 10, 0), round(1000, 20, 2)]);
    expect(combined).toEqual({ name: 'vote', rps: 1000, p50: 10, p99: 20, count: 30, failed: 2 });
  });

  it('sums load results failures too (non-2xx answers and errors)', () => {
    const load = (non2xx: number, errors: number) => ({
      name: 'lookup',
      rps: 1,
      p50: 1,
      p99: 1,
      count: 1,
      non2xx,
      errors,
    });
    expect(medianOfRounds([load(0, 1), load(3, 0)])).toMatchObject({ non2xx: 3, errors: 1 });
  });

  it('sums the failed answers of every round by status, and the row says them', () => {
    const load = (failures: Record<string, number>) => ({
      name: 'vote',
      rps: 1,
      p50: 1,
      p99: 1,
      count: 1,
      non2xx: Object.values(failures).reduce((a, b) => a + b, 0),
      errors: 0,
      failures,
    });
    const combined = medianOfRounds([load({ '409': 2 }), load({}), load({ '409': 1, '503': 4 })]);
    expect(combined.failures).toEqual({ '409': 3, '503': 4 });
    expect(formatRow(combined)).toMatch(/ 7 {2}\(409 × 3, 503 × 4\)$/);
    expect(formatRow(load({}))).not.toMatch(/\(/);
  });

  it('runs the rounds one after the other, at least one', async () => {
    const order: number[] = [];
    expect(await inRounds(3, async (r) => (order.push(r), r * 2))).toEqual([0, 2, 4]);
    expect(order).toEqual([0, 1, 2]);
    expect(await inRounds(0, async (r) => r)).toEqual([0]);
  });
});
