import { createHash } from 'node:crypto';
import { startFake, type Fake, type SeenRequest } from './fakes/fake-server.ts';
import { startGithubFake } from './fakes/github.fake.ts';
import { as, startIntegrations, until, type IntegrationsHarness } from './support/integrations-harness.ts';

/**
 * GitHub's OAuth token endpoint (form body, JSON answer with Accept: application/json): the code of an
 * authorization, checked against its PKCE challenge; refresh tokens that rotate (a used one is dead).
 */
function oauthProvider(github: Awaited<ReturnType<typeof startGithubFake>>) {
  const state = { challenge: '', issued: 0, live: new Set<string>(), revoked: false, refreshDelayMs: 0 };
  const route = async (req: SeenRequest) => {
    if (req.method !== 'POST' || req.path !== '/login/oauth/access_token') return { status: 404, json: {} };
    const form = new URLSearchParams(req.text);
    if (form.get('client_id') !== 'gh-client' || form.get('client_secret') !== 'gh-secret')
      return { status: 401, json: { error: 'invalid_client' } };
    if (form.get('grant_type') === 'authorization_code') {
      const verifier = form.get('code_verifier') ?? '';
      const ok =
        form.get('code') === 'the-code' &&
        createHash('sha256').update(verifier).digest('base64url') === state.challenge;
      if (!ok) return { json: { error: 'bad_verification_code' } };
    } else {
      await new Promise((resolve) => setTimeout(resolve, state.refreshDelayMs));
      const given = form.get('refresh_token') ?? '';
      if (state.revoked || !state.live.delete(given))
        return { status: 400, json: { error: 'invalid_grant' } };
    }
    const n = ++state.issued;
    state.live.add(`refresh-${n}`);
    github.tokens.add(`gho-${n}`);
    // The code exchange's token is this short-lived, so it is refreshed at its next use; a refreshed
    // one lasts an hour (a test makes it expire by hand).
    return {
      json: {
        access_token: `gho-${n}`,
        refresh_token: `refresh-${n}`,
        expires_in: form.get('grant_type') === 'refresh_token' ? 3600 : 30,
        token_type: 'bearer',
      },
    };
  };
  return { state, route };
}

describe('OAuth connections', () => {
  let h: IntegrationsHarness;
  let github: Awaited<ReturnType<typeof startGithubFake>>;
  let provider: Fake;
  let oauth: ReturnType<typeof oauthProvider>;
  beforeAll(async () => {
    github = await startGithubFake();
    oauth = oauthProvider(github);
    provider = await startFake(oauth.route);
    h = await startIntegrations({
      INTEGRATION_GITHUB_CLIENT_ID: 'gh-client',
      INTEGRATION_GITHUB_CLIENT_SECRET: 'gh-secret',
      GITHUB_OAUTH_URL: provider.url,
      PUBLIC_BASE_URL: 'https://poker.example',
    });
  });
  afterAll(async () => {
    await h.stop();
    await provider.stop();
    await github.stop();
  });

  async function start(owner: string) {
    // not followed: the browser would go there
    const res = await fetch(`${h.url}/integrations/oauth/github/start?name=Via%20OAuth`, {
      ...as(owner),
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    oauth.state.challenge = location.searchParams.get('code_challenge')!;
    return location;
  }
  const callback = (state: string, extra: Record<string, string> = {}) =>
    h.client.get(
      `/integrations/oauth/github/callback?${new URLSearchParams({ code: 'the-code', state, ...extra })}`,
    );

  it('redirects with a signed state and a PKCE challenge, exchanges the code once, and stores the tokens encrypted', async () => {
    const location = await start('oauth-user');
    expect(`${location.origin}${location.pathname}`).toBe(`${provider.url}/login/oauth/authorize`);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      client_id: 'gh-client',
      redirect_uri: 'https://poker.example/integrations/oauth/github/callback',
      response_type: 'code',
      state: expect.stringMatching(/^[\w-]{32}\.[\w-]{43}$/),
      scope: 'repo',
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
    });
    const state = location.searchParams.get('state')!;
    const done = await callback(state);
    expect(done.status).toBe(201);
    expect(done.body.connection).toMatchObject({
      provider: 'github',
      name: 'Via OAuth',
      auth_method: 'oauth',
      status: 'active',
    });
    expect(done.text).not.toContain('gho-1');
    expect(done.text).not.toContain('refresh-1');
    expect((await callback(state)).body.error.code).toBe('invalid_oauth_state');
    const form = new URLSearchParams(provider.seen.at(-1)?.text ?? '');
    expect(form.get('redirect_uri')).toBe('https://poker.example/integrations/oauth/github/callback');
  });

  it('refuses a state of someone else, a forged one, and answers 422 oauth_not_configured without an app', async () => {
    const location = await start('first-user');
    const state = location.searchParams.get('state')!;
    expect(
      (
        await h.client.get(
          `/integrations/oauth/github/callback?code=the-code&state=${state}`,
          as('second-user'),
        )
      ).status,
    ).toBe(400);
    expect((await callback(`${state.slice(0, 33)}${'A'.repeat(43)}`)).status).toBe(400);
    const linear = await h.client.get('/integrations/oauth/linear/start', as('first-user'));
    expect([linear.status, linear.body.error.code]).toEqual([422, 'oauth_not_configured']);
    expect((await h.client.get('/integrations/oauth/trello/start', as('first-user'))).status).toBe(422);
  });

  it('refreshes an expiring token once for concurrent calls, keeps the rotated refresh token, and asks to reconnect on invalid_grant', async () => {
    const location = await start('refresh-user');
    const made = (await callback(location.searchParams.get('state')!)).body.connection;
    const patched = await h.client.patch(`/integrations/connections/${made.id}`, {
      body: { settings: { api_url: github.apiUrl, owner: 'octo', repository: 'planning' } },
      ...as('refresh-user'),
    });
    expect(patched.status).toBe(200);
    const refreshes = () => provider.seen.filter((r) => r.text.includes('grant_type=refresh_token')).length;
    const before = refreshes();
    const tests = await Promise.all(
      [1, 2, 3].map(() => h.client.post(`/integrations/connections/${made.id}/test`, as('refresh-user'))),
    );
    expect(tests.map((t) => t.status)).toEqual([200, 200, 200]);
    expect(refreshes() - before).toBe(1);
    // a fresh token is used as it is
    expect(
      (await h.client.post(`/integrations/connections/${made.id}/test`, as('refresh-user'))).status,
    ).toBe(200);
    expect(refreshes() - before).toBe(1);
    const expireSoon = () =>
      h.sql(`update connections set token_expires_at = now() + interval '10 seconds' where id = ?`, [
        made.id,
      ]);
    // the next refresh uses the rotated token (the first one is dead by now)
    await expireSoon();
    expect(
      (await h.client.post(`/integrations/connections/${made.id}/test`, as('refresh-user'))).status,
    ).toBe(200);
    expect(refreshes() - before).toBe(2);
    oauth.state.revoked = true;
    await expireSoon();
    const refused = await h.client.post(`/integrations/connections/${made.id}/test`, as('refresh-user'));
    expect([refused.status, refused.body.error.code]).toEqual([409, 'needs_reconnection']);
    const listed = await h.client.get('/integrations/connections', as('refresh-user'));
    expect(listed.body.connections.find((c: { id: string }) => c.id === made.id).status).toBe(
      'needs_reconnection',
    );
  });

  /** A new OAuth connection of the owner, on the fake GitHub, whose token expires in a moment. */
  async function expiringConnection(owner: string) {
    oauth.state.revoked = false;
    const location = await start(owner);
    const made = (await callback(location.searchParams.get('state')!)).body.connection;
    const patched = await h.client.patch(`/integrations/connections/${made.id}`, {
      body: { settings: { api_url: github.apiUrl, owner: 'octo', repository: 'planning' } },
      ...as(owner),
    });
    expect(patched.status).toBe(200);
    await h.sql(`update connections set token_expires_at = now() + interval '10 seconds' where id = ?`, [
      made.id,
    ]);
    return made.id as string;
  }
  const refreshes = () => provider.seen.filter((r) => r.text.includes('grant_type=refresh_token')).length;

  it('refreshes once across replicas, holding no lock on the connection while the provider answers', async () => {
    const id = await expiringConnection('replicas-user');
    const other = await h.replica();
    const before = refreshes();
    oauth.state.refreshDelayMs = 1_000;
    try {
      const calls = Promise.all(
        [h.client, other, h.client, other].map((client) =>
          client.post(`/integrations/connections/${id}/test`, as('replicas-user')),
        ),
      );
      await until(async () => refreshes() > before);
      // While the provider takes its time: the row is not locked, and the owner can rename the connection.
      await h.sql('select id from connections where id = ? for update nowait', [id]);
      const renamed = await other.patch(`/integrations/connections/${id}`, {
        body: { name: 'Renamed meanwhile' },
        ...as('replicas-user'),
      });
      expect(renamed.status).toBe(200);
      expect(refreshes() - before).toBe(1);
      expect((await calls).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    } finally {
      oauth.state.refreshDelayMs = 0;
    }
    expect(refreshes() - before).toBe(1);
    const [row] = await h.sql(
      "select name, refresh_lease, token_expires_at > now() + interval '1 minute' as fresh from connections where id = ?",
      [id],
    );
    expect(row).toEqual({ name: 'Renamed meanwhile', refresh_lease: null, fresh: true });
  });

  it('refreshes in place of a holder that is gone once its lease runs out', async () => {
    const id = await expiringConnection('lapsed-user');
    await h.sql(
      `update connections set refresh_lease = gen_random_uuid(), refresh_lease_until = now() - interval '1 second' where id = ?`,
      [id],
    );
    const before = refreshes();
    expect((await h.client.post(`/integrations/connections/${id}/test`, as('lapsed-user'))).status).toBe(200);
    expect(refreshes() - before).toBe(1);
  });
});
