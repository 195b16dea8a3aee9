import { createHash } from 'node:crypto';
import { api, setCookieOf } from '@pp/testing';
import type { FakeOAuthProvider } from './support/fake-oauth-provider.ts';
import { startIdentity, type IdentityHarness } from './support/identity-harness.ts';
import { startWithSignOn } from './support/sign-on.ts';
import { followSignOn } from './support/oauth-flow.ts';

let provider: FakeOAuthProvider;
let identity: IdentityHarness;
const client = api(() => identity.url);

let stop: () => Promise<void>;
beforeAll(async () => {
  ({ provider, identity, stop } = await startWithSignOn({ PUBLIC_BASE_URL: 'https://poker.example.com' }));
});
afterAll(() => stop());

describe('identity: social sign-on is finished by the browser that started it', () => {
  it('sets a nonce cookie at start: HttpOnly, Lax, Secure, for the callback only, as long as the state', async () => {
    const flow = await followSignOn(identity.url, 'github');
    expect(flow.setCookies).toHaveLength(1);
    const cookie = setCookieOf(flow.setCookies[0]!);
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie.attributes.get('path')).toBe('/auth/oauth/github/callback');
    expect(cookie.attributes.get('max-age')).toBe('600');
    expect(cookie.attributes.get('samesite')).toBe('Lax');
    expect(cookie.attributes.has('httponly')).toBe(true);
    expect(cookie.attributes.has('secure')).toBe(true);
    // Only its hash is kept with the state.
    const rows = (await identity.db.fork().getConnection().execute('select * from oauth_states')) as Array<{
      browser_hash: string;
    }>;
    expect(JSON.stringify(rows)).not.toContain(cookie.value);
    const hash = createHash('sha256').update(cookie.value).digest('hex');
    expect(rows.map((r) => r.browser_hash)).toContain(hash);
  });

  it('refuses the callback link in another browser (no cookie, or its own) and clears the cookie', async () => {
    provider.signInAs({ sub: '666', email: 'mallory@example.com', emailVerified: true, name: 'Mallory' });
    const attacker = await followSignOn(identity.url, 'github');
    const victim = await followSignOn(identity.url, 'github');
    for (const headers of [{}, victim.browser]) {
      const res = await client.get(attacker.callbackPath, { headers });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_oauth_state');
      const cleared = setCookieOf(res.headers.getSetCookie()[0] ?? '');
      expect(cleared.attributes.get('path')).toBe('/auth/oauth/github/callback');
      expect(new Date(cleared.attributes.get('expires')!).getTime()).toBeLessThan(Date.now());
    }
    // Those refusals cost the browser that started nothing: it can still finish.
    const own = await client.get(attacker.callbackPath, { headers: attacker.browser });
    expect(own.status).toBe(200);
    expect(own.body.user.email).toBe('mallory@example.com');
    expect(setCookieOf(own.headers.getSetCookie()[0] ?? '').value).toBe('');
  });

  it('does not mark the cookie Secure when the public URL is plain http', async () => {
    const plain = await startIdentity({ ...provider.env(), PUBLIC_BASE_URL: 'http://127.0.0.1:8080/api' });
    try {
      const cookie = setCookieOf((await followSignOn(plain.url, 'google')).setCookies[0] ?? '');
      expect(cookie.attributes.has('secure')).toBe(false);
      expect(cookie.attributes.get('path')).toBe('/api/auth/oauth/google/callback');
    } finally {
      await plain.stop();
    }
  });
});
