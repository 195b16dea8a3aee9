import { jetstreamManager } from '@nats-io/jetstream';
import { api } from '@pp/testing';
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

describe('identity: social sign-on', () => {
  it('lists the configured providers', async () => {
    const res = await client.get('/auth/oauth/providers');
    expect(res.body.providers.map((p: { id: string }) => p.id)).toEqual(['github', 'google']);
  });

  it('redirects to the provider with PKCE S256, a signed state and the public callback URL', async () => {
    const { authorizeUrl } = await followSignOn(identity.url, 'github');
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizeUrl.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorizeUrl.searchParams.get('state')).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]+$/);
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(
      'https://poker.example.com/auth/oauth/github/callback',
    );
  });

  it('signs a new GitHub user in, creates the account, and accepts the state only once', async () => {
    provider.signInAs({ sub: '42', email: 'Octo@Example.com', emailVerified: true, name: 'Octo' });
    const { callbackPath, browser } = await followSignOn(identity.url, 'github');
    const res = await client.get(callbackPath, { headers: browser });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      user: { email: 'octo@example.com', name: 'Octo', email_verified: true },
      token_type: 'Bearer',
    });
    expect(res.body.token).toMatch(/^pp_access_/);
    expect(provider.exchanges.at(-1)).toEqual({ ok: true });
    const replay = await client.get(callbackPath, { headers: browser });
    expect(replay.status).toBe(400);
    expect(replay.body.error.code).toBe('invalid_oauth_state');
    const next = await followSignOn(identity.url, 'github');
    const again = await client.get(next.callbackPath, { headers: next.browser });
    expect(again.body.user.id).toBe(res.body.user.id);
    // One account, so one user.created on the bus (the outbox lets a row go once it is published).
    await identity.relay.drain();
    const subject = `${identity.bus.prefix}.user.created`;
    const jsm = await jetstreamManager(identity.nc);
    const stream = await jsm.streams.info(identity.bus.stream, { subjects_filter: subject });
    expect(stream.state.subjects).toEqual({ [subject]: 1 });
  });

  it('refuses a forged state and a code paired with another sign-on’s PKCE verifier', async () => {
    const a = await followSignOn(identity.url, 'google');
    const forged = new URLSearchParams({
      code: a.callbackQuery.get('code')!,
      state: `${crypto.randomUUID()}.forged`,
    });
    const forgedRes = await client.get(`/auth/oauth/google/callback?${forged}`, { headers: a.browser });
    expect(forgedRes.status).toBe(400);
    const b = await followSignOn(identity.url, 'google');
    const mixed = new URLSearchParams({
      code: a.callbackQuery.get('code')!,
      state: b.callbackQuery.get('state')!,
    });
    const res = await client.get(`/auth/oauth/google/callback?${mixed}`, { headers: b.browser });
    expect(res.status).toBe(401);
    expect(provider.exchanges.at(-1)).toEqual({
      ok: false,
      reason: 'PKCE verifier does not match the challenge',
    });
  });

  it('links a provider identity to the existing account with the same verified email', async () => {
    const reg = await client.post('/auth/register', {
      body: { email: 'gina@example.com', password: 'password1', name: 'Gina' },
    });
    provider.signInAs({ sub: 'google-77', email: 'gina@example.com', emailVerified: true, name: 'Gina G' });
    const flow = await followSignOn(identity.url, 'google');
    const res = await client.get(flow.callbackPath, { headers: flow.browser });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(reg.body.user.id);
  });

  it('does not link on an unverified email (409) and reports a denied consent as 401', async () => {
    await client.post('/auth/register', {
      body: { email: 'hal@example.com', password: 'password1', name: 'Hal' },
    });
    provider.signInAs({ sub: 'google-88', email: 'hal@example.com', emailVerified: false, name: 'Not Hal' });
    const flow = await followSignOn(identity.url, 'google');
    const res = await client.get(flow.callbackPath, { headers: flow.browser });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('email_unverified');
    const refused = await followSignOn(identity.url, 'google');
    const denied = new URLSearchParams({
      error: 'access_denied',
      state: refused.callbackQuery.get('state')!,
    });
    const deniedRes = await client.get(`/auth/oauth/google/callback?${denied}`, { headers: refused.browser });
    expect(deniedRes.status).toBe(401);
    expect(deniedRes.body.error.code).toBe('oauth_denied');
  });

  it('answers 404 for a provider that is not configured', async () => {
    expect((await client.get('/auth/oauth/myspace/start')).status).toBe(404);
  });
});

describe('identity: social sign-on with a return URL', () => {
  let withReturn: IdentityHarness;
  beforeAll(async () => {
    withReturn = await startIdentity({
      ...provider.env(),
      OAUTH_RETURN_URL: 'https://app.example.com/signed-in',
    });
  });
  afterAll(() => withReturn.stop());

  it('redirects the browser to the return URL with the token in the fragment, never in the query', async () => {
    provider.signInAs({ sub: '5150', email: 'ret@example.com', emailVerified: true, name: 'Ret' });
    const { callbackPath, browser } = await followSignOn(withReturn.url, 'github');
    const res = await fetch(`${withReturn.url}${callbackPath}`, { redirect: 'manual', headers: browser });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe('https://app.example.com/signed-in');
    expect(location.search).toBe('');
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('token')).toMatch(/^pp_access_/);
    expect(fragment.get('token_type')).toBe('Bearer');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
