import { randomBytes } from 'node:crypto';
import { api, until } from '@pp/testing';
import { startGateway, startStubUnits, type GatewayHarness } from './support/gateway-harness.ts';
import { sharedCountsReplicas } from './support/shared-redis.ts';

let units: Awaited<ReturnType<typeof startStubUnits>>;
beforeAll(async () => {
  units = await startStubUnits();
});
afterAll(() => units.stop());

const ip = (n: number) => ({ 'x-forwarded-for': `10.2.${randomBytes(1)[0]}.${n}` });
/** A request outside a room's entry, without a token: a vote without a participant token counts against the address. */
const anonymousVote = (url: string, headers: Record<string, string>) =>
  api(url).post('/sessions/ABCDEF/vote', { body: { vote: '5' }, headers });

describe('gateway: rate limit', () => {
  let gateway: GatewayHarness;
  beforeAll(async () => {
    gateway = await startGateway({ env: { ...units.env, RATE_LIMIT_PER_MINUTE: '60' } });
  });
  afterAll(() => gateway.stop());

  it('lets 60 requests a minute through with the limit headers, refuses the 61st with 429 and Retry-After, and not another IP', async () => {
    const me = ip(1);
    for (let i = 1; i <= 60; i++) {
      const res = await anonymousVote(gateway.url, me);
      expect(res.status).toBe(201);
      expect(res.headers.get('x-ratelimit-limit')).toBe('60');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(60 - i));
    }
    const before = Math.floor(Date.now() / 1000);
    const reset = Number((await anonymousVote(gateway.url, ip(2))).headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(before + 59);
    expect(reset).toBeLessThanOrEqual(before + 61);

    const refused = await anonymousVote(gateway.url, me);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.body).toMatchObject({
      success: false,
      message: 'Too many requests: at most 60 per minute from one address',
      error: { code: 'rate_limited' },
    });
    expect(refused.headers.get('ratelimit-policy')).toMatch(/^"ip"; q=60; w=60/);
    expect(refused.headers.get('ratelimit')).toMatch(/^"ip"; r=0; t=\d+/);

    expect((await anonymousVote(gateway.url, ip(3))).status).toBe(201);
  });

  it('counts a live stream once, when it opens, however long it runs (an anonymous one as entering the room)', async () => {
    const me = ip(4);
    const controller = new AbortController();
    const stream = await fetch(`${gateway.url}/sessions/ABCDEF/events`, {
      headers: me,
      signal: controller.signal,
    });
    expect(stream.headers.get('x-ratelimit-remaining')).toBe('599');
    expect(stream.headers.get('ratelimit-policy')).toMatch(/^"room"; q=600; w=60/);
    const reader = stream.body!.getReader();
    for (let events = 0; events < 3;) {
      const { value } = await reader.read();
      events += (new TextDecoder().decode(value).match(/event: tick/g) ?? []).length;
    }
    const next = await api(gateway.url).get('/sessions/ABCDEF', { headers: me });
    expect(next.headers.get('x-ratelimit-remaining')).toBe('598');
    controller.abort();
  });

  it('keeps at most LIVE_STREAMS_PER_ADDRESS streams open from one address: the next is 429 too_many_streams until one closes', async () => {
    const capped = await startGateway({ env: { ...units.env, LIVE_STREAMS_PER_ADDRESS: '2' } });
    const controllers: AbortController[] = [];
    const open = async (headers: Record<string, string>) => {
      const controller = new AbortController();
      controllers.push(controller);
      const res = await fetch(`${capped.url}/sessions/ABCDEF/events`, { headers, signal: controller.signal });
      return { res, controller };
    };
    try {
      const me = ip(5);
      const first = await open(me);
      const second = await open(me);
      expect([first.res.status, second.res.status]).toEqual([200, 200]);

      const refused = await open(me);
      expect(refused.res.status).toBe(429);
      expect(await refused.res.json()).toMatchObject({ success: false, error: { code: 'too_many_streams' } });
      expect(Number(refused.res.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another address, and a plain request from this one, are not held back.
      expect((await open(ip(6))).res.status).toBe(200);
      expect((await api(capped.url).get('/sessions/ABCDEF', { headers: me })).status).toBe(200);

      // Closing a stream frees its place (the gateway hears of the close a moment later).
      first.controller.abort();
      let again = await open(me);
      for (let tries = 0; again.res.status === 429 && tries < 50; tries++) {
        await new Promise((r) => setTimeout(r, 20));
        again = await open(me);
      }
      expect(again.res.status).toBe(200);
      expect((await open(me)).res.status).toBe(429);
    } finally {
      for (const c of controllers) c.abort();
      await capped.stop();
    }
  });

  it('never counts a HEAD of a stream among the streams: it is a plain request, under the API timeout', async () => {
    const capped = await startGateway({
      env: { ...units.env, LIVE_STREAMS_PER_ADDRESS: '2', UPSTREAM_TIMEOUT_MS: '500' },
    });
    const controller = new AbortController();
    try {
      const me = ip(7);
      const seen = () => units.stubs.sessions!.seen.filter((s) => s.method === 'HEAD').length;
      const before = seen();
      // HEADs the unit holds: each would keep its place among the streams while it waits.
      let answered = 0;
      const heads = Array.from({ length: 5 }, () =>
        fetch(`${capped.url}/sessions/ABCDEF/events?delay_ms=60000`, {
          method: 'HEAD',
          headers: me,
          signal: AbortSignal.any([controller.signal, AbortSignal.timeout(5_000)]),
        })
          .then(
            (res) => res.status,
            (err: Error) => err.name,
          )
          .finally(() => answered++),
      );
      // Each is at the unit, or refused by the gateway.
      await until(async () => seen() - before + answered >= 5);
      const stream = await fetch(`${capped.url}/sessions/ABCDEF/events`, {
        headers: me,
        signal: controller.signal,
      });
      expect(stream.status).toBe(200);
      expect(await Promise.all(heads)).toEqual([504, 504, 504, 504, 504]);
    } finally {
      controller.abort();
      await capped.stop();
    }
  });

  it('never counts or limits the probes and docs: a flood of /healthz leaves the API budget untouched', async () => {
    const limited = await startGateway({ env: { ...units.env, RATE_LIMIT_PER_MINUTE: '5' } });
    try {
      const client = api(limited.url);
      const me = ip(40);
      const own = ['/healthz', '/readyz', '/openapi.json', '/docs/', '/docs/swagger-ui.css'];
      // /readyz answers 503 here (identity is not among the stubs): what matters is that nothing is a 429.
      const seen = new Set<string>();
      for (let round = 0; round < 10; round++) {
        const flood = Array.from({ length: 40 }, () => fetch(`${limited.url}/healthz`, { headers: me }));
        const answers = await Promise.all([
          ...flood,
          ...own.map((path) => fetch(limited.url + path, { headers: me })),
        ]);
        for (const res of answers)
          seen.add(`${new URL(res.url).pathname} ${res.status === 429 ? 429 : 'answered'}`);
      }
      expect([...seen].sort()).toEqual(own.map((path) => `${path} answered`).sort());
      const first = await anonymousVote(limited.url, me);
      expect(first.status).toBe(201);
      expect(first.headers.get('x-ratelimit-remaining')).toBe('4');
      for (let i = 0; i < 4; i++) await anonymousVote(limited.url, me);
      expect((await anonymousVote(limited.url, me)).status).toBe(429);
      // Spent on the API, the address still gets its probes answered.
      expect((await client.get('/healthz', { headers: me })).status).toBe(200);
      expect((await client.get('/openapi.json', { headers: me })).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });

  it('ignores X-Forwarded-For unless told to trust a proxy', async () => {
    const strict = await startGateway({
      env: { ...units.env, RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: 'false' },
    });
    try {
      for (let i = 0; i < 3; i++) expect((await anonymousVote(strict.url, ip(10 + i))).status).toBe(201);
      expect((await anonymousVote(strict.url, ip(20))).status).toBe(429);
    } finally {
      await strict.stop();
    }
  });
});

describe('gateway: rate limit shared through Redis', () => {
  const replicas = sharedCountsReplicas(() => units.env);

  it('refuses the 61st request of one IP across two gateway replicas', async () => {
    const me = ip(30);
    const { a, b } = replicas;
    for (let i = 0; i < 60; i++) expect((await anonymousVote(i % 2 ? a.url : b.url, me)).status).toBe(201);
    const onA = await anonymousVote(a.url, me);
    const onB = await anonymousVote(b.url, me);
    expect([onA.status, onB.status]).toEqual([429, 429]);
    expect((await anonymousVote(b.url, ip(31))).status).toBe(201);
  });
});
