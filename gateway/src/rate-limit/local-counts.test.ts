import { jest } from '@jest/globals';
import { LocalCounts } from './local-counts.ts';

describe('local rate-limit counts', () => {
  afterEach(() => jest.useRealTimers());

  it('counts a bucket from its first request for one window, answering synchronously', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const counts = new LocalCounts(60_000);
    const first = counts.add('ip:10.0.0.1', 1);
    expect(first).toEqual({ totalHits: 1, resetTime: new Date(1_060_000) });
    jest.setSystemTime(1_030_000);
    expect(counts.add('ip:10.0.0.1', 1).totalHits).toBe(2);
    expect(counts.add('ip:10.0.0.2', 1)).toEqual({ totalHits: 1, resetTime: new Date(1_090_000) });
    jest.setSystemTime(1_060_000);
    expect(counts.add('ip:10.0.0.1', 1)).toEqual({ totalHits: 1, resetTime: new Date(1_120_000) });
    counts.shutdown();
  });

  it('adds several hits at once, gives them back, peeks without counting, and sweeps ended windows', () => {
    jest.useFakeTimers({ now: 0 });
    const counts = new LocalCounts(1_000);
    expect(counts.peek('a').totalHits).toBe(0);
    expect(counts.add('a', 10).totalHits).toBe(10);
    expect(counts.add('a', -10).totalHits).toBe(0);
    counts.add('a', 2);
    expect(counts.peek('a').totalHits).toBe(2);
    expect(counts.peek('a').totalHits).toBe(2);
    counts.add('b', 1);
    jest.advanceTimersByTime(2_000);
    expect(counts.peek('a').totalHits).toBe(0);
    expect(counts.size).toBe(0);
    counts.shutdown();
  });
});
