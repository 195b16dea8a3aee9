import { api } from '@pp/testing';
import { startGateway, startStubUnits, type GatewayHarness } from './support/gateway-harness.ts';

describe('gateway: GET /', () => {
  let units: Awaited<ReturnType<typeof startStubUnits>>;
  let gateway: GatewayHarness;
  beforeAll(async () => {
    units = await startStubUnits();
    gateway = await startGateway({ env: { ...units.env, RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(async () => {
    await gateway.stop();
    await units.stop();
  });

  it('welcomes in the envelope of the API with where to go next: the docs, the OpenAPI document, the probe', async () => {
    const res = await api(gateway.url).get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const links = { docs: '/docs', openapi: '/openapi.json', health: '/healthz' };
    expect(res.body).toEqual({ success: true, message: 'Planning poker API', ...links, data: links });
    for (const path of Object.values(links))
      expect((await fetch(gateway.url + path, { headers: { 'x-forwarded-for': '10.3.0.9' } })).status).toBe(
        200,
      );
  });

  it('is never counted nor limited: a flood of it leaves the API budget untouched', async () => {
    const me = { 'x-forwarded-for': '10.3.0.1' };
    const flood = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${gateway.url}/`, { headers: me })),
    );
    expect(flood.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 200));
    expect(flood[0]!.headers.get('x-ratelimit-remaining')).toBeNull();
    // (A vote without a participant token counts against the address.)
    const first = await api(gateway.url).post('/sessions/ABCDEF/vote', { body: {}, headers: me });
    expect(first.status).toBe(201);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  it('answers only GET and HEAD of the root itself: another method is 405, near misses are 404', async () => {
    const client = api(gateway.url);
    expect((await fetch(`${gateway.url}/`, { method: 'HEAD' })).status).toBe(200);
    const posted = await client.post('/', { body: {}, headers: { 'x-forwarded-for': '10.3.0.4' } });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
    expect(posted.body).toMatchObject({ success: false, error: { code: 'method_not_allowed' } });
    for (const path of ['/welcome', '/x', '//'])
      expect((await client.get(path, { headers: { 'x-forwarded-for': '10.3.0.2' } })).status).toBe(404);
  });

  it("answers 405 with Allow: GET, HEAD to another method on the gateway's own endpoints", async () => {
    const tries = [
      ['POST', '/healthz'],
      ['DELETE', '/readyz'],
      ['POST', '/openapi.json'],
      ['PATCH', '/docs'],
    ] as const;
    for (const [i, [method, path]] of tries.entries()) {
      // (A write is counted: an address each keeps the budget of 3 out of it.)
      const headers = { 'x-forwarded-for': `10.3.1.${i}` };
      const res = await fetch(gateway.url + path, { method, headers });
      expect([method, path, res.status, res.headers.get('allow')]).toEqual([method, path, 405, 'GET, HEAD']);
    }
  });
});
