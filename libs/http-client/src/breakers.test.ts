import { jest } from '@jest/globals';
import { circuitBreaker, keyedBreakers } from './breakers.ts';

const failing = () =>
  keyedBreakers({
    action: async (fail: boolean) => {
      if (fail) throw new Error('down');
      return 'ok';
    },
    breaker: { volumeThreshold: 2, resetTimeoutMs: 60_000 },
    capacity: 2,
  });

describe('circuitBreaker', () => {
  afterEach(() => jest.useRealTimers());

  it('counts calls and failures, without gathering latencies or taking a snapshot every second', async () => {
    jest.useFakeTimers();
    const breaker = circuitBreaker(async (fail: boolean) => {
      if (fail) throw new Error('down');
      return 'ok';
    });
    const snapshots: unknown[] = [];
    breaker.status.on('snapshot', (stats) => snapshots.push(stats));
    for (let i = 0; i < 4; i++) await breaker.fire(false);
    await breaker.fire(true).catch(() => undefined);
    jest.advanceTimersByTime(3_000);
    expect(snapshots).toEqual([]);
    expect(breaker.stats).toMatchObject({ fires: 5, successes: 4, failures: 1, latencyMean: -1 });
    expect(breaker.stats.latencyTimes).toEqual([]);
    breaker.shutdown();
  });

  it('forgets calls older than its window, its buckets turned by one timer for all breakers', async () => {
    jest.useFakeTimers();
    const breakers = Array.from({ length: 50 }, () =>
      circuitBreaker(async () => 'ok', { rollingCountTimeoutMs: 2_000 }),
    );
    expect(jest.getTimerCount()).toBe(1);
    for (const breaker of breakers) await breaker.fire();
    jest.advanceTimersByTime(1_000);
    expect(breakers[0]!.stats.fires).toBe(1);
    jest.advanceTimersByTime(1_000);
    expect(breakers.map((b) => b.stats.fires)).toEqual(breakers.map(() => 0));
    for (const breaker of breakers) breaker.shutdown();
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe('keyedBreakers', () => {
  it('opens the breaker of the key that keeps failing only, and says which are open', async () => {
    const opened: string[] = [];
    const breakers = keyedBreakers({
      action: async (fail: boolean) => {
        if (fail) throw new Error('down');
        return 'ok';
      },
      breaker: { volumeThreshold: 2, resetTimeoutMs: 60_000 },
      onOpen: (key) => opened.push(key),
    });
    for (let i = 0; i < 3; i++) await breakers.fire('dead', true).catch(() => undefined);
    await expect(breakers.fire('dead', false)).rejects.toThrow(/open/i);
    await expect(breakers.fire('alive', false)).resolves.toBe('ok');
    expect(breakers.opened()).toEqual(['dead']);
    expect(opened).toEqual(['dead']);
    breakers.shutdown();
  });

  it('keeps at most `capacity` breakers, letting go of the one used longest ago', async () => {
    const breakers = failing();
    for (const key of ['a', 'b', 'a', 'c']) await breakers.fire(key, false);
    expect(breakers.size).toBe(2);
    for (let i = 0; i < 3; i++) await breakers.fire('a', true).catch(() => undefined);
    expect(breakers.opened()).toEqual(['a']);
    breakers.shutdown();
  });

  it('sweeps the closed breakers unused for a while, but those in use and those open', async () => {
    const breakers = failing();
    await breakers.fire('quiet', false);
    for (let i = 0; i < 3; i++) await breakers.fire('open', true).catch(() => undefined);
    // Unused for a while: at least a millisecond (within the same one, it was just used).
    await new Promise((r) => setTimeout(r, 5));
    breakers.sweep(0, (key) => key === 'busy');
    expect(breakers.size).toBe(1);
    expect(breakers.opened()).toEqual(['open']);
    await breakers.fire('busy', false);
    await new Promise((r) => setTimeout(r, 5));
    breakers.sweep(1, (key) => key === 'busy');
    expect(breakers.size).toBe(2);
    breakers.shutdown();
    expect(breakers.size).toBe(0);
  });
});
