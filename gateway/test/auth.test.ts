import http from 'node:http';
import { signIdentity } from '@pp/http';
import { api, pastMoment } from '@pp/testing';
import {
  startIdentity,
  type IdentityHarness,
} from '../../services/identity/test/support/identity-harness.ts';
import {
  INTERNAL_KEY,
  startGateway,
  startStubUnits,
  type GatewayHarness,
} from './support/gateway-harness.ts';

let identity: IdentityHarness;
let units: Awaited<ReturnType<typeof startStubUnits>>;
let gateway: GatewayHarness;
let replica: GatewayHarness;
const client = api(() => gateway.url);
const other = api(() => replica.url);
// Each test file speaks from its own addresses so the rate limit of one never touches another.
const from = (n: number) => ({ 'x-forwarded-for': `10.1.0.${n}` });

beforeAll(async () => {
  identity = await startIdentity();
  units = await startStubUnits();
  const env = { IDENTITY_URL: identity.url, ...units.env, RATE_LIMIT_PER_MINUTE: '1000' };
  gateway = await startGateway({ env, eventsPrefix: identity.bus.prefix });
  replica = await startGateway({ env, eventsPrefix: identity.bus.prefix });
});
afterAll(async () => {
  await gateway.stop();
  await replica.stop();
  await units.stop();
  await identity.stop();
});

const register = async (email: string) => {
  const res = await client.post('/auth/register', {
    body: { email, password: 'password123', name: email.split('@')[0] },
    headers: from(1),
  });
  expect(res.status).toBe(201);
  return res.body as { user: { id: string }; token: string };
};

describe('gateway: authentication', () => {
  it('registers through the gateway (201 with a token), logs in, and answers /auth/me with the token', async () => {
    const reg = await register('ann@example.com');
    expect(reg.token).toMatch(/^pp_access_/);
    const login = await client.post('/auth/login', {
      body: { email: 'ann@example.com', password: 'password123' },
      headers: from(1),
    });
    expect(login.status).toBe(200);
    const me = await client.get('/auth/me', { token: login.body.token, headers: from(1) });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(reg.user.id);
  });

  it('answers 401 with WWW-Authenticate and the envelope without a token, with a bad one, and with a non-bearer scheme', async () => {
    const variants: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer pp_api_' + 'x'.repeat(43) },
      { authorization: 'Bearer nonsense' },
      { authorization: 'Basic YTpi' },
    ];
    for (const headers of variants) {
      const res = await client.get('/auth/me', { headers: { ...from(2), ...headers } });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(res.body).toMatchObject({
        success: false,
        error: { code: expect.stringMatching(/^(unauthorized|invalid_token)$/) },
      });
    }
    expect((await client.get('/sessions', { headers: from(2) })).status).toBe(401);
    expect(units.stubs.sessions!.seen.some((s) => s.path === '/sessions' && s.method === 'GET')).toBe(false);
  });

  it('lets an MCP token act on the same endpoints, forwarding the signed identity and never the token', async () => {
    const reg = await register('mcp@example.com');
    const created = await client.post('/auth/tokens', {
      body: { name: 'Claude', kind: 'mcp' },
      token: reg.token,
      headers: from(3),
    });
    expect(created.status).toBe(201);
    const mcp = created.body.token.token as string;
    expect((await client.get('/auth/me', { token: mcp, headers: from(3) })).body.user.id).toBe(reg.user.id);
    const res = await client.get('/sessions', { token: mcp, headers: from(3) });
    expect(res.status).toBe(200);
    expect(res.body.identity).toMatchObject({ sub: reg.user.id, kind: 'user', token_kind: 'mcp' });
    expect(units.stubs.sessions!.seen.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('lets no MCP or API token make or list tokens: 403, and only the access token of a sign-in can', async () => {
    const reg = await register('mint@example.com');
    const created = await client.post('/auth/tokens', {
      body: { name: 'Claude', kind: 'mcp' },
      token: reg.token,
      headers: from(10),
    });
    const mcp = created.body.token.token as string;
    const minted = await client.post('/auth/tokens', {
      body: { name: 'Forever', kind: 'api' },
      token: mcp,
      headers: from(10),
    });
    expect([minted.status, minted.body.error.code]).toEqual([403, 'access_token_required']);
    const listed = await client.get('/auth/tokens', { token: mcp, headers: from(10) });
    expect([listed.status, listed.body.error.code]).toEqual([403, 'access_token_required']);
  });

  it('refuses a token once its lifetime is over (401 invalid_token), also where it was cached', async () => {
    const reg = await register('short@example.com');
    // Long enough for the checks before it on a busy machine.
    const expiresAt = new Date(Date.now() + 3_000).toISOString();
    const created = await client.post('/auth/tokens', {
      body: { name: 'Short', kind: 'api', expires_at: expiresAt },
      token: reg.token,
      headers: from(10),
    });
    expect(created.status).toBe(201);
    const secret = created.body.token.token as string;
    expect((await client.get('/auth/me', { token: secret, headers: from(10) })).status).toBe(200);
    expect(gateway.tokenCache.size).toBeGreaterThan(0);
    await pastMoment(expiresAt, 100);
    const after = await client.get('/auth/me', { token: secret, headers: from(10) });
    expect([after.status, after.body.error.code]).toEqual([401, 'invalid_token']);
  });

  it('tells apart the tokens sent one after another on one kept-alive connection, and a revoked one on it', async () => {
    const ann = await register('conn-ann@example.com');
    const bob = await register('conn-bob@example.com');
    const created = await client.post('/auth/tokens', {
      body: { name: 'Script', kind: 'api' },
      token: ann.token,
      headers: from(7),
    });
    const annApi = created.body.token as { id: string; token: string };
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const me = (token: string) =>
      new Promise<{ status: number; id?: string }>((resolve, reject) => {
        const req = http.get(
          `${gateway.url}/auth/me`,
          { agent, headers: { authorization: `Bearer ${token}`, ...from(7) } },
          (res) => {
            sockets.add(req.socket);
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode!, id: JSON.parse(text).user?.id }));
          },
        );
        req.on('error', reject);
      });
    try {
      for (const [token, id] of [
        [annApi.token, ann.user.id],
        [bob.token, bob.user.id],
        [annApi.token, ann.user.id],
        [annApi.token, ann.user.id],
        [bob.token, bob.user.id],
      ] as const) {
        expect(await me(token)).toEqual({ status: 200, id });
      }
      const revoked = await client.delete(`/auth/tokens/${annApi.id}`, {
        token: ann.token,
        headers: from(7),
      });
      expect(revoked.status).toBe(200);
      expect((await me(annApi.token)).status).toBe(401);
      expect(await me(bob.token)).toEqual({ status: 200, id: bob.user.id });
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('drops an identity header sent by a client: a public endpoint sees an anonymous caller', async () => {
    const forged = signIdentity(INTERNAL_KEY, {
      sub: 'someone-else',
      kind: 'user',
      iss: 'gateway',
      aud: 'sessions',
    });
    const res = await client.get('/sessions/ABCDEF', { headers: { ...from(4), 'x-pp-identity': forged } });
    expect(res.status).toBe(200);
    expect(res.body.identity).toBeNull();
    const authed = await client.get('/sessions', { headers: { ...from(4), 'x-pp-identity': forged } });
    expect(authed.status).toBe(401);
  });

  it('treats a public request with an invalid token as anonymous, and with a valid one as that user', async () => {
    const reg = await register('pub@example.com');
    const anon = await client.get('/sessions/ABCDEF/participants', {
      token: 'pp_api_' + 'y'.repeat(43),
      headers: from(5),
    });
    expect(anon.status).toBe(200);
    expect(anon.body.identity).toBeNull();
    const known = await client.post('/sessions/ABCDEF/join', {
      token: reg.token,
      body: {},
      headers: from(5),
    });
    expect(known.body.identity).toMatchObject({ sub: reg.user.id });
  });

  it('lets round control through with a participant token alone, and checks a bearer token there as where one is needed', async () => {
    const reg = await register('mod@example.com');
    const path = '/stories/00000000-0000-4000-8000-000000000001/reveal' as const;
    const seat = { ...from(6), 'x-participant-token': 'ppt_checked-by-the-unit' };
    // The unit checks the participant token: the gateway sends the request on, anonymous.
    const bySeat = await client.post(path, { headers: seat });
    expect([bySeat.status < 300, bySeat.body.identity]).toEqual([true, null]);
    const byOwner = await client.post(path, { token: reg.token, headers: from(6) });
    expect(byOwner.body.identity).toMatchObject({ sub: reg.user.id });
    // Neither: 401. A bearer token that proves nothing: 401 too, even beside a participant token.
    const neither = await client.post(path, { headers: from(6) });
    expect([neither.status, neither.body.error.code]).toEqual([401, 'unauthorized']);
    const invalid = await client.post(path, { token: 'pp_api_' + 'x'.repeat(43), headers: seat });
    expect([invalid.status, invalid.body.error.code]).toEqual([401, 'invalid_token']);
  });

  it('refuses a forged identity header sent straight to a service', async () => {
    const forged = signIdentity('not-the-platform-key-000000000000000000', {
      sub: 'u1',
      kind: 'user',
      iss: 'gateway',
      aud: 'sessions',
    });
    const res = await api(units.stubs.sessions!.url).get('/sessions', {
      headers: { 'x-pp-identity': forged },
    });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_identity');
  });

  it('refuses a revoked token at once, here and on the other replica: the next request after the 200', async () => {
    const reg = await register('rev@example.com');
    // Several times over: the other replica hears of it through NATS, and must have before the answer.
    for (let round = 0; round < 10; round++) {
      const created = await client.post('/auth/tokens', {
        body: { name: `CI ${round}`, kind: 'api' },
        token: reg.token,
        headers: from(6),
      });
      const secret = created.body.token.token as string;
      expect((await client.get('/auth/me', { token: secret, headers: from(6) })).status).toBe(200);
      expect((await other.get('/auth/me', { token: secret, headers: from(6) })).status).toBe(200);
      expect(replica.tokenCache.size).toBeGreaterThan(0);

      const revoked = await client.delete(`/auth/tokens/${created.body.token.id}`, {
        token: reg.token,
        headers: from(6),
      });
      expect(revoked.status).toBe(200);
      const [there, here] = await Promise.all([
        other.get('/auth/me', { token: secret, headers: from(6) }),
        client.get('/auth/me', { token: secret, headers: from(6) }),
      ]);
      expect({ round, there: there.status, here: here.status }).toEqual({ round, there: 401, here: 401 });
    }
  });

  it('refuses a token revoked by its id in capitals at once on the replica that revoked it, without the broker', async () => {
    // No revocation listener: this replica learns of the revocation only from the answer it relays.
    const alone = await startGateway({ env: { IDENTITY_URL: identity.url, ...units.env } });
    try {
      const own = api(alone.url);
      const reg = await register('caps@example.com');
      const created = await own.post('/auth/tokens', {
        body: { name: 'Caps', kind: 'api' },
        token: reg.token,
        headers: from(9),
      });
      const { id, token: secret } = created.body.token as { id: string; token: string };
      expect((await own.get('/auth/me', { token: secret, headers: from(9) })).status).toBe(200);
      const revoked = await own.delete(`/auth/tokens/${id.toUpperCase()}`, {
        token: reg.token,
        headers: from(9),
      });
      expect(revoked.status).toBe(200);
      expect((await own.get('/auth/me', { token: secret, headers: from(9) })).status).toBe(401);
    } finally {
      await alone.stop();
    }
  });
});

describe('gateway: routing', () => {
  it('answers unknown paths and /internal paths with 404 and the envelope, and a wrong method with 405', async () => {
    const unknown = await client.get('/nope', { headers: from(7) });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, error: { code: 'route_not_found' } });
    const internal = await client.post('/internal/tokens/introspect', {
      body: { token: 'x' },
      headers: from(7),
    });
    expect(internal.status).toBe(404);
    expect((await client.get('/sessions/ABCDEF/../../internal/x', { headers: from(7) })).status).toBe(404);
    const wrong = await client.put('/sessions/ABCDEF', { body: {}, headers: from(7) });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, PATCH');
  });

  it('sends each path to its unit', async () => {
    const reg = await register('route@example.com');
    const cases: Array<[string, string, string]> = [
      ['GET', '/sessions/ABCDEF/stories', 'stories'],
      ['POST', '/stories/s1/reveal', 'stories'],
      ['GET', '/sessions/ABCDEF/analytics', 'stories'],
      ['POST', '/sessions/ABCDEF/ai/summary', 'ai'],
      ['POST', '/sessions/ABCDEF/integrations/import-confirm', 'integrations'],
      ['GET', '/integrations/providers', 'integrations'],
      ['GET', '/webhooks', 'webhooks'],
      ['POST', '/folders', 'sessions'],
      ['POST', '/mcp', 'mcp'],
    ];
    for (const [method, path, unit] of cases) {
      const res =
        method === 'GET'
          ? await client.get(path, { token: reg.token, headers: from(8) })
          : await client.post(path, { token: reg.token, body: {}, headers: from(8) });
      expect({ path, unit: res.body.unit }).toEqual({ path, unit });
    }
  });
});
