import { retryAfterMs } from './retry-after.ts';

describe('retryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads seconds (a fraction too) or an HTTP date, a date already past as no wait', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(' 1.5 ', now)).toBe(1_500);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(['30', '60'], now)).toBe(30_000);
  });

  it('says nothing of a header absent, empty or not a delay', () => {
    for (const value of [undefined, null, '', 'soon', '-5', '1e3', '0x10'])
      expect([value, retryAfterMs(value, now)]).toEqual([value, undefined]);
  });
});
