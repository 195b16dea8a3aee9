import { createHash } from 'node:crypto';
import { setCookieOf } from '@pp/testing';
import type { Fake } from './fakes/fake-server.ts';
import type { githubOAuth } from './fakes/github-oauth.fake.ts';
import { as, type IntegrationsHarness } from './support/integrations-harness.ts';
import { startWithGithubOAuth } from './support/github.ts';
import { callbackPath, startConnection } from './support/oauth-flow.ts';

describe('an OAuth connection is finished only by the browser that started it', () => {
  let h: IntegrationsHarness;
  let provider: Fake;
  let oauth: ReturnType<typeof githubOAuth>;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ h, provider, oauth, stop } = await startWithGithubOAuth());
  }, 60_000);
  afterAll(() => stop?.());

  const exchanges = () => provider.seen.filter((r) => r.path === '/login/oauth/access_token').length;
  const connectionsOf = async (owner: string) =>
    (await h.client.get('/integrations/connections', as(owner))).body.connections;

  it('sets a nonce cookie at start: HttpOnly, Lax, Secure, for the callback only, as long as the state', async () => {
    const flow = await startConnection(h.url, 'github', as('cookie-user').headers);
    expect(flow.setCookies).toHaveLength(1);
    const cookie = setCookieOf(flow.setCookies[0]!);
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie.attributes.get('path')).toBe('/integrations/oauth/github/callback');
    expect(cookie.attributes.get('max-age')).toBe('600');
    expect(cookie.attributes.get('samesite')).toBe('Lax');
    expect(cookie.attributes.has('httponly')).toBe(true);
    expect(cookie.attributes.has('secure')).toBe(true);
    // Only its hash is kept with the state.
    const rows = await h.sql('select * from oauth_states');
    expect(JSON.stringify(rows)).not.toContain(cookie.value);
    const hash = createHash('sha256').update(cookie.value).digest('hex');
    expect(rows.map((r) => r.browser_hash)).toContain(hash);
  });

  it("refuses an attacker's callback link in the victim's browser (no cookie, or its own) and stores nothing", async () => {
    const victim = await startConnection(h.url, 'github', as('victim').headers);
    const attacker = await startConnection(h.url, 'github', as('attacker').headers, 'Stolen');
    // The victim authorises the attacker's link: the provider sends the victim's browser back with a code.
    oauth.state.challenge = attacker.challenge;
    const before = exchanges();
    for (const headers of [{}, victim.browser]) {
      const res = await h.client.get(callbackPath('github', attacker.state), { headers });
      expect([res.status, res.body.error?.code]).toEqual([400, 'invalid_oauth_state']);
      const cleared = setCookieOf(res.headers.getSetCookie()[0] ?? '');
      expect(cleared.value).toBe('');
      expect(cleared.attributes.get('path')).toBe('/integrations/oauth/github/callback');
      expect(new Date(cleared.attributes.get('expires')!).getTime()).toBeLessThan(Date.now());
    }
    expect(exchanges()).toBe(before);
    expect(await connectionsOf('attacker')).toEqual([]);
    expect(await connectionsOf('victim')).toEqual([]);
    expect(await h.sql('select id from connections')).toEqual([]);

    // Those refusals cost the browser that started nothing: it can still finish, once.
    const own = await h.client.get(callbackPath('github', attacker.state), { headers: attacker.browser });
    expect(own.status).toBe(201);
    expect(own.body.connection).toMatchObject({ name: 'Stolen', auth_method: 'oauth' });
    expect(setCookieOf(own.headers.getSetCookie()[0] ?? '').value).toBe('');
    expect((await connectionsOf('attacker')).map((c: { id: string }) => c.id)).toEqual([
      own.body.connection.id,
    ]);
    const again = await h.client.get(callbackPath('github', attacker.state), { headers: attacker.browser });
    expect(again.status).toBe(400);
  });
});
