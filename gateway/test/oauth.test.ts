import { api } from '@pp/testing';
import {
  startFakeOAuthProvider,
  type FakeOAuthProvider,
} from '../../services/identity/test/support/fake-oauth-provider.ts';
import {
  startIdentity,
  type IdentityHarness,
} from '../../services/identity/test/support/identity-harness.ts';
import { followSignOn } from '../../services/identity/test/support/oauth-flow.ts';
import { startFake, type Fake } from '../../services/integrations/test/fakes/fake-server.ts';
import { githubOAuth, githubOAuthEnv } from '../../services/integrations/test/fakes/github-oauth.fake.ts';
import { startGithubFake } from '../../services/integrations/test/fakes/github.fake.ts';
import {
  startIntegrations,
  type IntegrationsHarness,
} from '../../services/integrations/test/support/integrations-harness.ts';
import { callbackPath, startConnection } from '../../services/integrations/test/support/oauth-flow.ts';
import {
  INTERNAL_KEY,
  startGateway,
  startStubUnits,
  type GatewayHarness,
} from './support/gateway-harness.ts';

let provider: FakeOAuthProvider;
let identity: IdentityHarness;
let github: Awaited<ReturnType<typeof startGithubFake>>;
let githubOAuthFake: Fake;
let oauth: ReturnType<typeof githubOAuth>;
let integrations: IntegrationsHarness;
let units: Awaited<ReturnType<typeof startStubUnits>>;
let gateway: GatewayHarness;
const from = { 'x-forwarded-for': '10.5.0.1' };
const client = api(() => gateway.url);

beforeAll(async () => {
  provider = await startFakeOAuthProvider({ clientId: 'gw-client', clientSecret: 'gw-secret' });
  const PUBLIC_BASE_URL = 'https://poker.example.com';
  identity = await startIdentity({ ...provider.env(), PUBLIC_BASE_URL });
  github = await startGithubFake();
  oauth = githubOAuth(github);
  githubOAuthFake = await startFake(oauth.route);
  // The integrations unit takes the identity the gateway signs; the sessions and stories units beside
  // it keep a key of their own (an OAuth connection calls neither).
  integrations = await startIntegrations({
    ...githubOAuthEnv(githubOAuthFake.url),
    PUBLIC_BASE_URL,
    INTERNAL_SIGNING_KEY: INTERNAL_KEY,
  });
  units = await startStubUnits(['sessions']);
  gateway = await startGateway({
    env: { IDENTITY_URL: identity.url, INTEGRATIONS_URL: integrations.url, ...units.env },
  });
});
afterAll(async () => {
  await gateway.stop();
  await units.stop();
  await integrations.stop();
  await githubOAuthFake.stop();
  await github.stop();
  await identity.stop();
  await provider.close();
});

describe('gateway: social sign-on end to end', () => {
  it('signs in through the gateway with a single-use state, and the token works on authenticated paths', async () => {
    provider.signInAs({ sub: '9001', email: 'sso@example.com', emailVerified: true, name: 'Sso User' });
    const flow = await followSignOn(gateway.url, 'github', from);
    expect(flow.authorizeUrl.origin).toBe(provider.url);
    // The state is bound to the browser by a cookie: the gateway passes Set-Cookie and Cookie on.
    expect(flow.browser.cookie).toMatch(/^\w+=[A-Za-z0-9_-]{43}$/);
    const elsewhere = await client.get(flow.callbackPath, { headers: from });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.getSetCookie()).toHaveLength(1);
    const browser = { ...from, ...flow.browser };
    const res = await client.get(flow.callbackPath, { headers: browser });
    expect(res.status).toBe(200);
    expect(provider.exchanges.at(-1)).toEqual({ ok: true });
    const me = await client.get('/auth/me', { token: res.body.token, headers: from });
    expect(me.body.user).toMatchObject({ email: 'sso@example.com', name: 'Sso User' });
    const sessions = await client.get('/sessions', { token: res.body.token, headers: from });
    expect(sessions.body.identity).toMatchObject({ sub: me.body.user.id, token_kind: 'access' });
    expect((await client.get(flow.callbackPath, { headers: browser })).status).toBe(400);
  });
});

describe('gateway: an OAuth connection to a tracker end to end', () => {
  it('is started with a bearer token and finished by the browser that started it', async () => {
    const registered = await client.post('/auth/register', {
      body: { email: 'tracker@example.com', password: 'password123', name: 'Tracker' },
      headers: from,
    });
    expect(registered.status).toBe(201);
    const token = registered.body.token as string;
    const flow = await startConnection(gateway.url, 'github', { ...from, authorization: `Bearer ${token}` });
    expect(flow.location.origin).toBe(githubOAuthFake.url);
    oauth.state.challenge = flow.challenge;
    // The state is bound to the browser by a cookie: the gateway passes Set-Cookie and Cookie on.
    expect(flow.browser.cookie).toMatch(/^\w+=[A-Za-z0-9_-]{43}$/);
    const path = callbackPath('github', flow.state);
    const elsewhere = await client.get(path, { headers: from });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.getSetCookie()).toHaveLength(1);
    const res = await client.get(path, { headers: { ...from, ...flow.browser } });
    expect(res.status).toBe(201);
    const listed = await client.get('/integrations/connections', { token, headers: from });
    expect(listed.body.connections.map((c: { id: string }) => c.id)).toEqual([res.body.connection.id]);
  });

  it("is started by a page's fetch, which gets the provider's link as JSON and opens it itself", async () => {
    const registered = await client.post('/auth/register', {
      body: { email: 'page@example.com', password: 'password123', name: 'Page' },
      headers: from,
    });
    const token = registered.body.token as string;
    const asked = await fetch(`${gateway.url}/integrations/oauth/github/start?name=From+the+page`, {
      headers: { ...from, authorization: `Bearer ${token}`, accept: 'application/json' },
      redirect: 'manual',
    });
    expect(asked.status).toBe(200);
    expect(asked.headers.get('vary')).toMatch(/accept/i);
    expect(asked.headers.get('cache-control')).toBe('no-store');
    const body = (await asked.json()) as { authorization_url: string };
    expect(body).toMatchObject({ success: true, data: { authorization_url: body.authorization_url } });
    const link = new URL(body.authorization_url);
    expect(link.origin).toBe(githubOAuthFake.url);
    oauth.state.challenge = link.searchParams.get('code_challenge')!;
    const browser = {
      cookie: asked.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; '),
    };
    expect(browser.cookie).toMatch(/^\w+=[A-Za-z0-9_-]{43}$/);
    const res = await client.get(callbackPath('github', link.searchParams.get('state')!), {
      headers: { ...from, ...browser },
    });
    expect(res.status).toBe(201);
    expect(res.body.connection).toMatchObject({ name: 'From the page', auth_method: 'oauth' });
  });
});

describe('gateway: the sign-on link for a page', () => {
  it('is the same start answered as JSON to a fetch that asks for it, with the cookie', async () => {
    const asked = await fetch(`${gateway.url}/auth/oauth/github/start`, {
      headers: { ...from, accept: 'application/json' },
      redirect: 'manual',
    });
    expect(asked.status).toBe(200);
    expect(new URL(((await asked.json()) as { authorization_url: string }).authorization_url).origin).toBe(
      provider.url,
    );
    expect(asked.headers.getSetCookie()).toHaveLength(1);
    // A browser's navigation (HTML first) is still sent on.
    const navigated = await fetch(`${gateway.url}/auth/oauth/github/start`, {
      headers: { ...from, accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      redirect: 'manual',
    });
    expect(navigated.status).toBe(302);
    expect(new URL(navigated.headers.get('location')!).origin).toBe(provider.url);
  });
});
