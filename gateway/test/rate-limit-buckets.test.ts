import { createHash, randomBytes } from 'node:crypto';
import { mintParticipantToken, participantTokenKey } from '@pp/contracts';
import { api } from '@pp/testing';
import {
  INTERNAL_KEY,
  startGateway,
  startStubUnits,
  type GatewayHarness,
} from './support/gateway-harness.ts';
import { sharedCountsReplicas } from './support/shared-redis.ts';
import { startStubUnit } from './support/stub-unit.ts';

let units: Awaited<ReturnType<typeof startStubUnits>>;
let gateway: GatewayHarness;
beforeAll(async () => {
  units = await startStubUnits();
  gateway = await startGateway({ env: { ...units.env, RATE_LIMIT_PER_MINUTE: '60' } });
});
afterAll(async () => {
  await gateway.stop();
  await units.stop();
});

const ip = () => ({ 'x-forwarded-for': `10.5.${randomBytes(1)[0]}.${randomBytes(1)[0]}` });
const code = () => `R${randomBytes(3).toString('hex').toUpperCase()}`.slice(0, 6);
const tokenKey = participantTokenKey(INTERNAL_KEY);
const policyOf = (res: { headers: Headers }) => res.headers.get('ratelimit-policy')?.split(';')[0];

/** A bearer token the gateways know as valid (as after one introspection). */
function knownToken(harnesses: GatewayHarness[], id = randomBytes(8).toString('hex')) {
  const token = `pp_api_${randomBytes(32).toString('base64url').slice(0, 43)}`;
  const identity = { sub: `user-${id}`, kind: 'user' as const, token_kind: 'api' as const, token_id: id };
  for (const h of harnesses)
    h.tokenCache.setValid(createHash('sha256').update(token).digest('base64url'), identity, id, null);
  return { authorization: `Bearer ${token}` };
}

async function spend(times: number, send: () => Promise<{ status: number }>) {
  const statuses = new Set<number>();
  for (let i = 0; i < times; i++) statuses.add((await send()).status);
  return [...statuses];
}

describe('gateway: rate-limit buckets', () => {
  it('counts a valid bearer token against that token, not against the address it comes from', async () => {
    const client = api(gateway.url);
    const me = ip();
    const mine = knownToken([gateway]);
    expect(await spend(60, () => client.get('/sessions', { headers: { ...me, ...mine } }))).toEqual([200]);
    const refused = await client.get('/sessions', { headers: { ...me, ...mine } });
    expect([refused.status, policyOf(refused), refused.body.message]).toEqual([
      429,
      '"token"',
      'Too many requests: at most 60 per minute with one token',
    ]);
    const another = await client.get('/sessions', { headers: { ...me, ...knownToken([gateway]) } });
    expect([another.status, another.headers.get('x-ratelimit-remaining')]).toEqual([200, '59']);
    const anonymous = await client.post('/sessions/ABCDEF/vote', { body: {}, headers: me });
    expect([anonymous.status, policyOf(anonymous), anonymous.headers.get('x-ratelimit-remaining')]).toEqual([
      201,
      '"ip"',
      '59',
    ]);
  });

  it('counts an invalid bearer token, an unknown route and a refused method against the address', async () => {
    const client = api(gateway.url);
    const me = ip();
    const answers = [
      await client.get('/sessions', { headers: { ...me, authorization: 'Bearer nope' } }),
      await client.get(`/sessions/${code()}`, { headers: { ...me, authorization: 'Bearer nope' } }),
      await client.get('/no-such-path', { headers: me }),
      await client.put('/sessions', { body: {}, headers: me }),
    ];
    expect(answers.map((r) => [r.status, policyOf(r), r.headers.get('x-ratelimit-remaining')])).toEqual([
      [401, '"ip"', '59'],
      [200, '"ip"', '58'],
      [404, '"ip"', '57'],
      [405, '"ip"', '56'],
    ]);
  });

  it('counts a participant token the sessions unit minted for the room against that participant; a made-up one buys nothing', async () => {
    const client = api(gateway.url);
    const me = ip();
    const room = code();
    const seat = { 'x-participant-token': mintParticipantToken(tokenKey, room) };
    const vote = (headers: Record<string, string>, at = room) =>
      client.post(`/sessions/${at}/vote`, { body: {}, headers: { ...me, ...headers } });
    expect(await spend(30, () => vote(seat))).toEqual([201]);
    expect(
      await spend(30, () => client.get(`/sessions/${room}/stories`, { headers: { ...me, ...seat } })),
    ).toEqual([200]);
    const refused = await vote(seat);
    expect([refused.status, policyOf(refused), refused.body.message]).toEqual([
      429,
      '"participant"',
      'Too many requests: at most 60 per minute for one participant',
    ]);
    // Made up, minted for another room, or minted before tokens carried a MAC: no token at all.
    for (const odd of [
      `ppt_${randomBytes(24).toString('base64url')}.${randomBytes(16).toString('base64url')}`,
      mintParticipantToken(tokenKey, code()),
      `ppt_${randomBytes(24).toString('base64url')}`,
    ]) {
      const res = await vote({ 'x-participant-token': odd });
      expect([res.status, policyOf(res)]).toEqual([201, '"ip"']);
    }
    const read = await client.get(`/sessions/${room}`, {
      headers: { ...me, 'x-participant-token': 'ppt_x' },
    });
    expect(policyOf(read)).toBe('"room"');
  });

  it("lets 50 people behind one address open and join a room on the room's allowance, leaving the address's own untouched", async () => {
    const client = api(gateway.url);
    const me = ip();
    const room = code();
    // All at once: the room is new to the gateway, and every request is on its way before any answer.
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, person) => [
        client.get(`/sessions/${room}`, { headers: me }),
        client.get(`/sessions/${room.toLowerCase()}/participants`, { headers: me }),
        client.get(`/sessions/${room}/stories`, { headers: me }),
        client.post(`/sessions/${room}/join`, { body: { name: `P${person}` }, headers: me }),
      ]).flat(),
    );
    const statuses = new Set(answers.map((res) => `${res.status} ${policyOf(res)}`));
    expect([...statuses].sort()).toEqual(['200 "room"', '201 "room"']);
    const last = await client.get(`/sessions/${room}`, { headers: me });
    expect(last.headers.get('x-ratelimit-remaining')).toBe(String(600 - 201));
    expect(last.headers.get('ratelimit-policy')).toMatch(/^"room"; q=600; w=60/);
    const vote = await client.post(`/sessions/${room}/vote`, { body: {}, headers: me });
    expect([policyOf(vote), vote.headers.get('x-ratelimit-remaining')]).toEqual(['"ip"', '59']);
  });

  it('keeps codes that do not exist limited per address: each 404 costs the address too, and a spent address enters no room', async () => {
    const client = api(gateway.url);
    const me = ip();
    expect(
      await spend(60, () => client.get(`/sessions/ZZ${randomBytes(2).toString('hex')}`, { headers: me })),
    ).toEqual([404]);
    const refused = await client.get(`/sessions/ZZ${randomBytes(2).toString('hex')}`, { headers: me });
    expect([refused.status, policyOf(refused), refused.body.message]).toEqual([
      429,
      '"ip"',
      'Too many requests: at most 60 per minute from one address',
    ]);
    expect(
      (await client.post(`/sessions/${code()}/join`, { body: { name: 'Eve' }, headers: me })).status,
    ).toBe(429);
    // Another address opens rooms as before.
    expect((await client.get(`/sessions/${code()}`, { headers: ip() })).status).toBe(200);
  });

  it('lets no burst of codes sent at once past the address limit: 100 lookups of codes that do not exist, 60 reach the unit', async () => {
    const me = ip();
    const seen = () => units.stubs.sessions!.seen.filter((s) => /^\/sessions\/ZZB/.test(s.path)).length;
    const codes = Array.from({ length: 100 }, (_, i) => `ZZB${String(i).padStart(3, '0')}`);
    // The unit answers late: every lookup is at the gateway before the first 404 comes back.
    const answers = await Promise.all(
      codes.map((c) => api(gateway.url).get(`/sessions/${c}?delay_ms=300`, { headers: me })),
    );
    const counted = new Map<number, number>();
    for (const res of answers) counted.set(res.status, (counted.get(res.status) ?? 0) + 1);
    expect(Object.fromEntries(counted)).toEqual({ 404: 60, 429: 40 });
    expect(seen()).toBe(60);
  });

  it('sends no token to identity from an address that has spent its allowance', async () => {
    const identity = await startStubUnit('identity');
    const checked = await startGateway({ env: { ...units.env, IDENTITY_URL: identity.url } });
    try {
      const me = ip();
      const made = () => ({
        ...me,
        authorization: `Bearer pp_api_${randomBytes(32).toString('base64url').slice(0, 43)}`,
      });
      const asked = () => identity.seen.filter((s) => s.path === '/internal/tokens/introspect').length;
      // A made-up token of the right shape is asked about (identity answers nonsense here: 503), and counts against the address.
      const first = await api(checked.url).get('/sessions', { headers: made() });
      expect([first.status, asked()]).toEqual([503, 1]);
      expect(
        await spend(59, () => api(checked.url).post(`/sessions/${code()}/vote`, { body: {}, headers: me })),
      ).toEqual([201]);
      const refused = await Promise.all(
        Array.from({ length: 5 }, () => api(checked.url).get('/sessions', { headers: made() })),
      );
      expect(refused.map((r) => [r.status, policyOf(r)])).toEqual(Array(5).fill([429, '"ip"']));
      expect(asked()).toBe(1);
    } finally {
      await checked.stop();
      await identity.stop();
    }
  });

  it('takes the room allowance from RATE_LIMIT_ROOM_ENTRY_PER_MINUTE', async () => {
    const small = await startGateway({
      env: { ...units.env, RATE_LIMIT_PER_MINUTE: '60', RATE_LIMIT_ROOM_ENTRY_PER_MINUTE: '3' },
    });
    try {
      const me = ip();
      const room = code();
      expect(await spend(3, () => api(small.url).get(`/sessions/${room}`, { headers: me }))).toEqual([200]);
      const refused = await api(small.url).get(`/sessions/${room}`, { headers: me });
      expect([refused.status, policyOf(refused), refused.body.message]).toEqual([
        429,
        '"room"',
        'Too many requests: at most 3 per minute to open or join one room from one address',
      ]);
      expect((await api(small.url).get(`/sessions/${code()}`, { headers: me })).status).toBe(200);
    } finally {
      await small.stop();
    }
  });
});

describe('gateway: MCP tool calls', () => {
  const batch = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/call',
      params: { name: 'get_session', arguments: { code: 'ABCDEF' } },
    }));

  it('charges every tool call of a batch to its caller: 100 do not fit in 60 and cost nothing, 10 leave 50', async () => {
    const client = api(gateway.url);
    const caller = { ...ip(), ...knownToken([gateway]) };
    const refused = await client.post('/mcp', { body: batch(100), headers: caller });
    expect([refused.status, policyOf(refused), refused.headers.get('x-ratelimit-remaining')]).toEqual([
      429,
      '"token"',
      '60',
    ]);
    const ten = await client.post('/mcp', { body: batch(10), headers: caller });
    expect(ten.status).toBe(201);
    expect(Number(ten.headers.get('x-ratelimit-remaining'))).toBeLessThanOrEqual(50);
    // The unit got the batch as it was sent.
    expect(ten.body.body).toEqual(batch(10));
    const one = await client.post('/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: caller,
    });
    expect(one.headers.get('x-ratelimit-remaining')).toBe('49');
  });
});

describe('gateway: rate-limit buckets shared through Redis', () => {
  const replicas = sharedCountsReplicas(() => units.env);

  it('shares every bucket between replicas, under keys that hold no token', async () => {
    const { redis, prefix, a, b } = replicas;
    const me = ip();
    const room = code();
    const seat = mintParticipantToken(tokenKey, room);
    const bearer = knownToken([a, b]);
    const token = bearer.authorization.slice('Bearer '.length);
    const calls = [
      (url: string) => api(url).get('/sessions', { headers: { ...me, ...bearer } }),
      (url: string) =>
        api(url).post(`/sessions/${room}/vote`, {
          body: {},
          headers: { ...me, 'x-participant-token': seat },
        }),
      (url: string) => api(url).get(`/sessions/${room}`, { headers: me }),
      (url: string) => api(url).post(`/sessions/${room}/vote`, { body: {}, headers: me }),
    ];
    for (const call of calls) {
      await call(a.url);
      const second = await call(b.url);
      expect(second.headers.get('x-ratelimit-remaining')).toBe(
        String(Number(second.headers.get('x-ratelimit-limit')) - 2),
      );
    }
    const keys = await redis.keys(`${prefix}*`);
    expect(keys.map((k) => k.slice(prefix.length).split(':')[0]).sort()).toEqual([
      'ip',
      'participant',
      'room',
      'token',
    ]);
    for (const secret of [token, seat, seat.split('.')[0]!]) expect(keys.join(' ')).not.toContain(secret);
  });
});
