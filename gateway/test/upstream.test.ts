import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { createLogger } from '@pp/logger';
import { api, startApp, until } from '@pp/testing';
import { metricsApp } from '../src/health/metrics-app.ts';
import { startGateway, startStubUnits, type GatewayHarness } from './support/gateway-harness.ts';

let units: Awaited<ReturnType<typeof startStubUnits>>;
let gateway: GatewayHarness;
const client = api(() => gateway.url);
const from = { 'x-forwarded-for': '10.3.0.1' };

/** The status of a join whose 600 KB body is streamed (no Content-Length), or the client's error code. */
async function streamed(base: string, contentType: string): Promise<number | string> {
  const res = await fetch(`${base}/sessions/ABCDEF/join`, {
    method: 'POST',
    headers: { ...from, 'content-type': contentType },
    body: new Blob([Buffer.alloc(600_000, 'x')]).stream(),
    duplex: 'half',
    signal: AbortSignal.timeout(5_000),
  } as RequestInit).catch((err: Error & { cause?: { code?: string } }) => err.cause?.code ?? err.name);
  if (typeof res === 'string') return res;
  await res.text();
  return res.status;
}

beforeAll(async () => {
  // identity is a stub here too: these tests are about the proxy, not about tokens.
  units = await startStubUnits(['identity', 'sessions', 'stories', 'ai', 'integrations', 'webhooks', 'mcp']);
  gateway = await startGateway({
    // A short API timeout keeps the timeout tests quick, and is long enough for a busy machine's stubs.
    env: { ...units.env, RATE_LIMIT_PER_MINUTE: '10000', UPSTREAM_TIMEOUT_MS: '1000', BODY_LIMIT: '1kb' },
  });
});
afterAll(async () => {
  await gateway.stop();
  await units.stop();
});

describe('gateway: upstream failures', () => {
  it('answers 503 fast for a stopped unit, names it in /readyz, and heals when it starts again', async () => {
    expect((await client.get('/readyz', { headers: from })).status).toBe(200);
    await units.stubs.stories!.stop();
    const started = Date.now();
    const down = await client.get('/sessions/ABCDEF/stories', { headers: from });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ success: false, error: { code: 'service_unavailable' } });
    expect(down.text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
    // /readyz answers from a state at most a second old.
    let ready = await client.get('/readyz', { headers: from });
    await until(async () => (ready = await client.get('/readyz', { headers: from })).status === 503);
    expect(ready.body.down).toEqual(['stories']);
    expect(ready.body.message).toMatch(/stories/);
    // Other units keep working meanwhile.
    expect((await client.get('/sessions/ABCDEF', { headers: from })).status).toBe(200);

    await units.stubs.stories!.start();
    await until(async () => (await client.get('/readyz', { headers: from })).status === 200);
    expect((await client.get('/sessions/ABCDEF/stories', { headers: from })).status).toBe(200);
  });

  it('answers 503, not 401 or 422, when identity answers introspection with something unreadable', async () => {
    // The stub identity answers every POST with a generic envelope, not an introspection result.
    const res = await client.get('/sessions', {
      headers: { ...from, authorization: `Bearer pp_mcp_${'q'.repeat(43)}` },
    });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('identity_unavailable');
  });

  it('answers 503, not 401, for a token that cannot be checked because identity is down', async () => {
    await units.stubs.identity!.stop();
    try {
      const started = Date.now();
      const res = await client.get('/sessions', {
        headers: { ...from, authorization: `Bearer pp_api_${'z'.repeat(43)}` },
      });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('identity_unavailable');
      expect(Date.now() - started).toBeLessThan(2000);
      // A public endpoint goes on anonymously meanwhile.
      const open = await client.get('/sessions/ABCDEF', {
        headers: { ...from, authorization: `Bearer pp_api_${'z'.repeat(43)}` },
      });
      expect(open.status).toBe(200);
      expect(open.body.identity).toBeNull();
      // Round control, which a participant token opens too, does not: the owner's token is checked
      // or the answer is 503 (going on anonymously, the unit would answer 401: signed out).
      const reveal = await client.post(`/stories/${randomUUID()}/reveal`, {
        headers: { ...from, authorization: `Bearer pp_api_${'z'.repeat(43)}` },
      });
      expect([reveal.status, reveal.body.error?.code]).toEqual([503, 'identity_unavailable']);
    } finally {
      await units.stubs.identity!.start();
    }
  });

  it('answers 503, never hangs, when a unit drops the connection while the client is still sending its body', async () => {
    const dropper = net.createServer((socket) => socket.once('data', () => socket.destroy()));
    await new Promise<void>((resolve) => dropper.listen(0, '127.0.0.1', resolve));
    const port = (dropper.address() as net.AddressInfo).port;
    const front = await startGateway({
      env: { ...units.env, SESSIONS_URL: `http://127.0.0.1:${port}`, RATE_LIMIT_PER_MINUTE: '10000' },
    });
    try {
      for (let i = 0; i < 5; i++) expect(await streamed(front.url, 'application/json')).toBe(503);
    } finally {
      await front.stop();
      dropper.close();
    }
  });

  it('answers 504 when a unit stays silent past the timeout', async () => {
    const started = Date.now();
    const res = await client.get('/sessions/ABCDEF?delay_ms=5000', { headers: from });
    expect(res.status).toBe(504);
    expect(res.body.error.code).toBe('gateway_timeout');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('passes a live stream through as it comes, past the API timeout', async () => {
    const controller = new AbortController();
    const res = await fetch(`${gateway.url}/sessions/ABCDEF/events`, {
      headers: from,
      signal: controller.signal,
    });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(res.headers.get('content-encoding')).toBeNull();
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toMatch(/^id: 1\nevent: tick/);
    const startedAt = Date.now();
    let last = '';
    while (Date.now() - startedAt < 1500) last = new TextDecoder().decode((await reader.read()).value);
    expect(last).toMatch(/event: tick/);
    controller.abort();
  });

  it("answers a HEAD of a live stream with the unit's headers, at once, with no body", async () => {
    const res = await fetch(`${gateway.url}/sessions/ABCDEF/events`, {
      method: 'HEAD',
      headers: from,
      signal: AbortSignal.timeout(2_000),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(await res.text()).toBe('');
  });
});

describe('gateway: request hygiene', () => {
  it('refuses a body over the limit with 413 and the envelope before it reaches the unit', async () => {
    const seen = units.stubs.sessions!.seen.length;
    const res = await client.post('/sessions/ABCDEF/join', {
      body: { name: 'x'.repeat(2000) },
      headers: from,
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
    expect(units.stubs.sessions!.seen.length).toBe(seen);
  });

  it('streams a body to the unit unparsed', async () => {
    const res = await client.post('/sessions/ABCDEF/join', { body: { name: 'Ann' }, headers: from });
    expect(res.body.body).toEqual({ name: 'Ann' });
  });

  it("passes on a unit's refusal of a body the client is still streaming, rather than a 503", async () => {
    // No Content-Length, and within the limit: the unit refuses it at once (not JSON, not UTF-8).
    const roomy = await startGateway({ env: { ...units.env, RATE_LIMIT_PER_MINUTE: '10000' } });
    try {
      for (const type of ['multipart/form-data; boundary=x', 'application/json; charset=latin1'])
        for (let i = 0; i < 10; i++) expect([type, await streamed(roomy.url, type)]).toEqual([type, 415]);
    } finally {
      await roomy.stop();
    }
  });

  it('refuses a body streamed without Content-Length with 413 once it passes the limit, and the unit never takes it', async () => {
    // Over the gateway's limit (1 KB here), well within the unit's own.
    const join = (name: string) =>
      fetch(`${gateway.url}/sessions/ABCDEF/join`, {
        method: 'POST',
        headers: { ...from, 'content-type': 'application/json' },
        body: new Blob([JSON.stringify({ name })]).stream(),
        duplex: 'half',
        signal: AbortSignal.timeout(5_000),
      } as RequestInit);
    const seen = units.stubs.sessions!.seen.length;
    for (let i = 0; i < 5; i++) {
      const res = await join('x'.repeat(10_000));
      expect([res.status, ((await res.json()) as { error?: { code: string } }).error?.code]).toEqual([
        413,
        'payload_too_large',
      ]);
    }
    expect(units.stubs.sessions!.seen.length).toBe(seen);
    const small = await join('x'.repeat(900));
    expect(small.status).toBe(201);
    expect(((await small.json()) as { body: { name: string } }).body.name).toHaveLength(900);
  });

  it('treats a request that expects 100 Continue as any other: no token sent on, its streamed body limited', async () => {
    // curl asks so of a large upload: the gateway answers the expectation itself, the unit is not asked.
    const post = (body: string) =>
      new Promise<{ status: number; code?: string }>((resolve, reject) => {
        const req = http.request(`${gateway.url}/sessions/ABCDEF/join`, {
          method: 'POST',
          headers: {
            ...from,
            'content-type': 'application/json',
            'transfer-encoding': 'chunked',
            expect: '100-continue',
            authorization: 'Bearer not-a-token',
          },
          timeout: 5_000,
        });
        req.on('continue', () => req.end(body));
        req.on('response', (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              code: (JSON.parse(text) as { error?: { code: string } }).error?.code,
            }),
          );
        });
        req.on('timeout', () => req.destroy(new Error('no answer')));
        req.on('error', reject);
      });
    expect(await post(JSON.stringify({ name: 'Ann' }))).toEqual({ status: 201, code: undefined });
    expect(units.stubs.sessions!.seen.at(-1)!.headers.authorization).toBeUndefined();
    expect(await post(JSON.stringify({ name: 'x'.repeat(10_000) }))).toEqual({
      status: 413,
      code: 'payload_too_large',
    });
  });

  it("passes no trace context a client names on to the unit (the units continue the gateway's trace)", async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const res = await client.get('/sessions/ABCDEF', {
      headers: { ...from, traceparent, tracestate: 'chosen=by-the-client' },
    });
    expect(res.status).toBe(200);
    const seen = units.stubs.sessions!.seen.at(-1)!.headers;
    expect(seen.traceparent).toBeUndefined();
    expect(seen.tracestate).toBeUndefined();
  });

  it('sets its own request id, and security headers', async () => {
    const res = await client.get('/sessions/ABCDEF', {
      headers: { ...from, 'x-request-id': 'client-chosen' },
    });
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(units.stubs.sessions!.seen.at(-1)!.headers['x-request-id']).toBe(id);
    expect(units.stubs.sessions!.seen.at(-1)!.headers['x-forwarded-for']).toBe('10.3.0.1');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it("passes a caller's correlation id on when it is well formed; without one the unit correlates by the request id", async () => {
    const seen = () => units.stubs.sessions!.seen.at(-1)!.headers;
    await client.get('/sessions/ABCDEF', { headers: { ...from } });
    expect(seen()['x-correlation-id']).toBeUndefined();
    await client.get('/sessions/ABCDEF', { headers: { ...from, 'x-correlation-id': 'job-42' } });
    expect(seen()['x-correlation-id']).toBe('job-42');
    const res = await client.get('/sessions/ABCDEF', {
      headers: { ...from, 'x-correlation-id': 'not safe <script>' },
    });
    expect(seen()['x-correlation-id']).toBe(res.headers.get('x-request-id'));
  });

  it('counts each request in the duration histogram by method, route pattern and status, on the metrics port alone', async () => {
    const metrics = await startApp(metricsApp(createLogger({ name: 'metrics-test', level: 'silent' })));
    const count = async () => {
      const text = await (await fetch(`${metrics.url}/metrics`)).text();
      const line = text
        .split('\n')
        .find((l) =>
          /^http_request_duration_seconds_count\{method="GET",route="\/sessions\/[^/"]+",status="200"\}/.test(
            l,
          ),
        );
      return line ? Number(line.split(' ').at(-1)) : 0;
    };
    const before = await count();
    for (const code of ['AAAAAA', 'BBBBBB']) await client.get(`/sessions/${code}`, { headers: from });
    expect(await count()).toBe(before + 2);
    // The public API has no /metrics: it is an unknown path there, counted like one.
    const publicMetrics = await client.get('/metrics', { headers: from });
    expect([publicMetrics.status, publicMetrics.body.error.code]).toEqual([404, 'route_not_found']);
    expect(publicMetrics.headers.get('ratelimit-policy')).toMatch(/^"ip"/);
    expect((await fetch(`${metrics.url}/sessions/AAAAAA`)).status).toBe(404);
    await metrics.close();
  });

  it('answers CORS preflights for any origin without credentials by default', async () => {
    const res = await fetch(`${gateway.url}/sessions`, {
      method: 'OPTIONS',
      headers: {
        ...from,
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('allows only the configured origins, with credentials, and never answers them with *', async () => {
    const strict = await startGateway({
      env: { ...units.env, CORS_ORIGINS: 'https://app.example.com', CORS_CREDENTIALS: 'true' },
    });
    try {
      const ask = (origin: string) =>
        fetch(`${strict.url}/sessions`, {
          method: 'OPTIONS',
          headers: { ...from, origin, 'access-control-request-method': 'POST' },
        });
      const allowed = await ask('https://app.example.com');
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
      const other = await ask('https://evil.example.com');
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      const plain = await fetch(`${strict.url}/sessions/ABCDEF`, { headers: from });
      expect(plain.headers.get('vary')).toMatch(/Origin/);
    } finally {
      await strict.stop();
    }
  });
});
