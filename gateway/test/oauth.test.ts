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
import { startGateway, startStubUnits, type GatewayHarness } from './support/gateway-harness.ts';

let provider: FakeOAuthProvider;
let identity: IdentityHarness;
let units: Awaited<ReturnType<typeof startStubUnits>>;
let gateway: GatewayHarness;
const from = { 'x-forwarded-for': '10.5.0.1' };

beforeAll(async () => {
  provider = await startFakeOAuthProvider({ clientId: 'gw-client', clientSecret: 'gw-secret' });
  identity = await startIdentity({ ...provider.env(), PUBLIC_BASE_URL: 'https://poker.example.com' });
  units = await startStubUnits(['sessions']);
  gateway = await startGateway({ env: { IDENTITY_URL: identity.url, ...units.env } });
});
afterAll(async () => {
  await gateway.stop();
  await units.stop();
  await identity.stop();
  await provider.close();
});

describe('gateway: social sign-on end to end', () => {
  it('signs in through the gateway with a single-use state, and the token works on authenticated paths', async () => {
    provider.signInAs({ sub: '9001', email: 'sso@example.com', emailVerified: true, name: 'Sso User' });
    const flow = await followSignOn(gateway.url, 'github', from);
    expect(flow.authorizeUrl.origin).toBe(provider.url);
    const client = api(gateway.url);
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
