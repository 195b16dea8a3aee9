import { jest } from '@jest/globals';
import { LocalCounts } from './local-counts.ts';

describe('local rate-limit counts', () => {
  afterEach(() => jest.useRealTimers());

  it('counts a client from its first request for one window, answering synchronously', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const counts = new LocalCounts();
    counts.init({ windowMs: 60_000 });
    const first = counts.increment('10.0.0.1');
    expect(first).toEqual({ totalHits: 1, resetTime: new Date(1_060_000) });
    jest.setSystemTime(1_030_000);
    expect(counts.increment('10.0.0.1').totalHits).toBe(2);
    expect(counts.increment('10.0.0.2')).toEqual({ totalHits: 1, resetTime: new Date(1_090_000) });
    jest.setSystemTime(1_060_000);
    expect(counts.increment('10.0.0.1')).toEqual({ totalHits: 1, resetTime: new Date(1_120_000) });
    counts.shutdown();
  });

  it('takes a request back, forgets a client on reset, and sweeps ended windows', () => {
    jest.useFakeTimers({ now: 0 });
    const counts = new LocalCounts();
    counts.init({ windowMs: 1_000 });
    counts.increment('a');
    counts.increment('a');
    counts.decrement('a');
    expect(counts.increment('a').totalHits).toBe(2);
    counts.resetKey('a');
    expect(counts.increment('a').totalHits).toBe(1);
    counts.increment('b');
    jest.advanceTimersByTime(2_000);
    expect(counts.size).toBe(0);
    counts.shutdown();
  });
});
