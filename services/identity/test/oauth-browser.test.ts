import { createHash } from 'node:crypto';
import { api } from '@pp/testing';
import { startFakeOAuthProvider, type FakeOAuthProvider } from './support/fake-oauth-provider.ts';
import { startIdentity, type IdentityHarness } from './support/identity-harness.ts';
import { followSignOn } from './support/oauth-flow.ts';

let provider: FakeOAuthProvider;
let identity: IdentityHarness;
const client = api(() => identity.url);

beforeAll(async () => {
  provider = await startFakeOAuthProvider({ clientId: 'pp-client', clientSecret: 'pp-secret' });
  identity = await startIdentity({ ...provider.env(), PUBLIC_BASE_URL: 'https://poker.example.com' });
});
afterAll(async () => {
  await identity.stop();
  await provider.close();
});

/** The attributes of a Set-Cookie line, by lower-case name (a flag's value is ''). */
function attributesOf(setCookie: string) {
  const [pair, ...rest] = setCookie.split(';').map((part) => part.trim());
  const attributes = new Map(
    rest.map((a) => [a.split('=')[0]!.toLowerCase(), a.slice(a.indexOf('=') + 1 || a.length)]),
  );
  return { name: pair!.split('=')[0]!, value: pair!.slice(pair!.indexOf('=') + 1), attributes };
}

describe('identity: social sign-on is finished by the browser that started it', () => {
  it('sets a nonce cookie at start: HttpOnly, Lax, Secure, for the callback only, as long as the state', async () => {
    const flow = await followSignOn(identity.url, 'github');
    expect(flow.setCookies).toHaveLength(1);
    const cookie = attributesOf(flow.setCookies[0]!);
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
      const cleared = attributesOf(res.headers.getSetCookie()[0] ?? '');
      expect(cleared.attributes.get('path')).toBe('/auth/oauth/github/callback');
      expect(new Date(cleared.attributes.get('expires')!).getTime()).toBeLessThan(Date.now());
    }
    // Those refusals cost the browser that started nothing: it can still finish.
    const own = await client.get(attacker.callbackPath, { headers: attacker.browser });
    expect(own.status).toBe(200);
    expect(own.body.user.email).toBe('mallory@example.com');
    expect(attributesOf(own.headers.getSetCookie()[0] ?? '').value).toBe('');
  });

  it('does not mark the cookie Secure when the public URL is plain http', async () => {
    const plain = await startIdentity({ ...provider.env(), PUBLIC_BASE_URL: 'http://127.0.0.1:8080/api' });
    try {
      const cookie = attributesOf((await followSignOn(plain.url, 'google')).setCookies[0] ?? '');
      expect(cookie.attributes.has('secure')).toBe(false);
      expect(cookie.attributes.get('path')).toBe('/api/auth/oauth/google/callback');
    } finally {
      await plain.stop();
    }
  });
});
