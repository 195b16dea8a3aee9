import type { Fake } from './fakes/fake-server.ts';
import type { githubOAuth } from './fakes/github-oauth.fake.ts';
import { GITHUB_TOKEN, type startGithubFake } from './fakes/github.fake.ts';
import { as, until, type IntegrationsHarness } from './support/integrations-harness.ts';
import { startWithGithubOAuth } from './support/github.ts';
import { callbackPath, startConnection } from './support/oauth-flow.ts';

describe('OAuth connections', () => {
  let h: IntegrationsHarness;
  let github: Awaited<ReturnType<typeof startGithubFake>>;
  let provider: Fake;
  let oauth: ReturnType<typeof githubOAuth>;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ h, github, provider, oauth, stop } = await startWithGithubOAuth());
  }, 60_000);
  afterAll(() => stop?.());

  /** A start as `owner`, whose authorization the provider then grants (the code is for its challenge). */
  async function start(owner: string) {
    const flow = await startConnection(h.url, 'github', as(owner).headers, 'Via OAuth');
    oauth.state.challenge = flow.challenge;
    return flow;
  }
  /** The callback in the browser that started `flow`, with its state or another one. */
  const callback = (flow: { state: string; browser: Record<string, string> }, state = flow.state) =>
    h.client.get(callbackPath('github', state), { headers: flow.browser });

  it('redirects with a signed state and a PKCE challenge, exchanges the code once, and stores the tokens encrypted', async () => {
    const flow = await start('oauth-user');
    const location = flow.location;
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
    const done = await callback(flow);
    expect(done.status).toBe(201);
    expect(done.body.connection).toMatchObject({
      provider: 'github',
      name: 'Via OAuth',
      auth_method: 'oauth',
      status: 'active',
    });
    expect(done.text).not.toContain('gho-1');
    expect(done.text).not.toContain('refresh-1');
    expect((await callback(flow)).body.error.code).toBe('invalid_oauth_state');
    const form = new URLSearchParams(provider.seen.at(-1)?.text ?? '');
    expect(form.get('redirect_uri')).toBe('https://poker.example/integrations/oauth/github/callback');
  });

  it('refuses a state of someone else, a forged one, and answers 422 oauth_not_configured without an app', async () => {
    const flow = await start('first-user');
    const signedIn = { headers: { ...flow.browser, ...as('second-user').headers } };
    expect((await h.client.get(callbackPath('github', flow.state), signedIn)).status).toBe(400);
    expect((await callback(flow, `${flow.state.slice(0, 33)}${'A'.repeat(43)}`)).status).toBe(400);
    const linear = await h.client.get('/integrations/oauth/linear/start', as('first-user'));
    expect([linear.status, linear.body.error.code]).toEqual([422, 'oauth_not_configured']);
    expect((await h.client.get('/integrations/oauth/trello/start', as('first-user'))).status).toBe(422);
  });

  it('refreshes an expiring token once for concurrent calls, keeps the rotated refresh token, and asks to reconnect on invalid_grant', async () => {
    const made = (await callback(await start('refresh-user'))).body.connection;
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
    const made = (await callback(await start(owner))).body.connection;
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
      let answered = false;
      const answer = () => (answered = true);
      calls.then(answer, answer);
      await until(async () => refreshes() > before);
      // While the provider takes its time (a second), the row is not locked. The other replica's try
      // for the lease may lock it for the length of its own statement (PostgreSQL locks a row it
      // rechecks after waiting for it), so the lock is tried for a moment, well inside that second.
      const unlocked = () =>
        h.sql('select id from connections where id = ? for update nowait', [id]).then(
          () => true,
          () => false,
        );
      await until(unlocked, 300);
      expect(answered).toBe(false);
      // And the owner can rename the connection meanwhile.
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

  it('uses a refreshed token whose answer names no lifetime for a while, rather than refreshing at every call', async () => {
    const id = await expiringConnection('lifetime-user');
    oauth.state.refreshLifetime = null;
    try {
      const before = refreshes();
      for (let i = 0; i < 3; i++)
        expect(
          (await h.client.post(`/integrations/connections/${id}/test`, as('lifetime-user'))).status,
        ).toBe(200);
      expect(refreshes() - before).toBe(1);
      const [row] = await h.sql(
        `select token_expires_at > now() + interval '50 minutes' as later from connections where id = ?`,
        [id],
      );
      expect(row).toEqual({ later: true });
    } finally {
      oauth.state.refreshLifetime = 3600;
    }
  });

  it('takes a pasted token in place of a grant the provider refused: the connection becomes a token connection and uses it', async () => {
    const id = await expiringConnection('pasted-user');
    oauth.state.revoked = true;
    try {
      const refused = await h.client.post(`/integrations/connections/${id}/test`, as('pasted-user'));
      expect([refused.status, refused.body.error.code]).toEqual([409, 'needs_reconnection']);
      const patched = await h.client.patch(`/integrations/connections/${id}`, {
        body: { credentials: { token: GITHUB_TOKEN } },
        ...as('pasted-user'),
      });
      expect(patched.status).toBe(200);
      expect(patched.body.connection).toMatchObject({
        auth_method: 'token',
        status: 'active',
        credentials: { stored: ['token'] },
      });
      expect(patched.body.connection.credentials.expires_at).toBeUndefined();
      const before = refreshes();
      const tested = await h.client.post(`/integrations/connections/${id}/test`, as('pasted-user'));
      expect(tested.status).toBe(200);
      expect(refreshes()).toBe(before);
      expect(github.seen.at(-1)!.headers.authorization).toBe(`Bearer ${GITHUB_TOKEN}`);
      // the provider's whole set of credentials: there are no others to keep
      const empty = await h.client.patch(`/integrations/connections/${id}`, {
        body: { credentials: {} },
        ...as('pasted-user'),
      });
      expect(empty.status).toBe(200);
      const other = await expiringConnection('pasted-user');
      const none = await h.client.patch(`/integrations/connections/${other}`, {
        body: { credentials: {} },
        ...as('pasted-user'),
      });
      expect([none.status, Object.keys(none.body.errors ?? {})]).toEqual([422, ['credentials.token']]);
    } finally {
      oauth.state.revoked = false;
    }
  });
});
