import { MAX_ATTEMPTS, MAX_RETRY_AFTER_MS, nextRetryDelay, RETRY_DELAYS_MS } from './retry-policy.ts';

describe('the retry policy', () => {
  it('follows the Standard Webhooks schedule: ten attempts over about three days', () => {
    const delays = Array.from({ length: MAX_ATTEMPTS }, (_, i) =>
      nextRetryDelay({ attempts: i + 1, retries: true, scale: 1, random: () => 0.5 }),
    );
    expect(delays.slice(0, 3)).toEqual([5_000, 300_000, 1_800_000]);
    expect(delays.at(-1)).toBeUndefined();
    const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total / 3600_000).toBeCloseTo(75.6, 0);
  });

  it('jitters each delay within ±20 %', () => {
    expect(nextRetryDelay({ attempts: 1, retries: true, scale: 1, random: () => 0 })).toBe(4_000);
    expect(nextRetryDelay({ attempts: 1, retries: true, scale: 1, random: () => 0.9999 })).toBeCloseTo(
      6_000,
      -1,
    );
  });

  it('waits longer when the receiver asks for it, never shorter, and makes no retry of a manual attempt', () => {
    expect(
      nextRetryDelay({ attempts: 1, retries: true, scale: 1, random: () => 0.5, retryAfterMs: 60_000 }),
    ).toBe(60_000);
    expect(
      nextRetryDelay({ attempts: 2, retries: true, scale: 1, random: () => 0.5, retryAfterMs: 1_000 }),
    ).toBe(300_000);
    expect(nextRetryDelay({ attempts: 1, retries: false, scale: 1 })).toBeUndefined();
  });

  it('grants a Retry-After up to a day', () => {
    expect(MAX_RETRY_AFTER_MS).toBe(24 * 3600_000);
    expect(
      nextRetryDelay({
        attempts: 1,
        retries: true,
        scale: 1,
        random: () => 0.5,
        retryAfterMs: 999_999_999_000,
      }),
    ).toBe(MAX_RETRY_AFTER_MS);
  });
});
