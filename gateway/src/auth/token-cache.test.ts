import { TokenCache } from './token-cache.ts';

const who = { sub: 'u1', kind: 'user' as const, token_kind: 'api' as const, token_id: 't1' };

describe('token cache', () => {
  let now = 1_000_000;
  const cache = () =>
    new TokenCache({ positiveTtlMs: 30_000, negativeTtlMs: 5_000, maxEntries: 3, now: () => now });

  it('keeps a valid token for its TTL but never past its expiry, and an invalid one for less', () => {
    const c = cache();
    c.setValid('a', who, 't1', null);
    c.setValid('b', who, 't2', now + 1_000);
    c.setInvalid('x');
    expect(c.get('a')).toEqual({ identity: who });
    expect(c.get('x')).toEqual({ identity: undefined });
    now += 2_000;
    expect(c.get('b')).toBeUndefined();
    now += 4_000;
    expect(c.get('x')).toBeUndefined();
    expect(c.get('a')).toEqual({ identity: who });
    now += 25_000;
    expect(c.get('a')).toBeUndefined();
  });

  it('forgets a revoked token at once and does not cache an answer about it that arrives late', () => {
    const c = cache();
    c.setValid('a', who, 't1', null);
    c.revoke('t1');
    expect(c.get('a')).toBeUndefined();
    c.setValid('a', who, 't1', null);
    expect(c.get('a')).toBeUndefined();
  });

  it('stays within its size, oldest out first, and can forget every valid token', () => {
    const c = cache();
    for (const k of ['a', 'b', 'c', 'd']) c.setValid(k, who, `t-${k}`, null);
    expect(c.size).toBe(3);
    expect(c.get('a')).toBeUndefined();
    c.setInvalid('x');
    c.clearValid();
    expect(c.get('d')).toBeUndefined();
    expect(c.get('x')).toEqual({ identity: undefined });
  });
});
