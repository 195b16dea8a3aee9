import { api } from '@pp/testing';
import { buildOpenApiDocument } from '../src/openapi/document.ts';
import { unitDocs } from '../src/openapi/unit-docs.ts';
import { routeTable } from '../src/routes.ts';
import { startGateway, startStubUnits, type GatewayHarness } from './support/gateway-harness.ts';

type Doc = ReturnType<typeof buildOpenApiDocument>;
const op = (doc: Doc, method: string, path: string): any =>
  (doc.paths?.[path] as Record<string, unknown> | undefined)?.[method.toLowerCase()];

describe('gateway: OpenAPI document', () => {
  const doc = buildOpenApiDocument(routeTable, unitDocs);

  it('is OpenAPI 3.1 and documents every route of the route table, with its security', () => {
    expect(doc.openapi).toBe('3.1.0');
    const missing = routeTable.filter((r) => !op(doc, r.method, r.path)).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
    for (const r of routeTable) {
      const security = op(doc, r.method, r.path).security;
      expect(security).toEqual(r.access === 'token' ? [{ bearerAuth: [] }] : [{}, { bearerAuth: [] }]);
    }
  });

  it('documents nothing the gateway does not route (besides its own endpoints)', () => {
    const own = new Set(['/healthz', '/readyz', '/openapi.json']);
    const routed = new Set(routeTable.map((r) => `${r.method} ${r.path}`));
    const extra = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      own.has(path)
        ? []
        : Object.keys(item as object)
            .map((m) => `${m.toUpperCase()} ${path}`)
            .filter((k) => !routed.has(k)),
    );
    expect(extra).toEqual([]);
  });

  it('plugs in only unit docs that name a route of the table', () => {
    const routed = new Set(routeTable.map((r) => `${r.method} ${r.path}`));
    expect(Object.keys(unitDocs).filter((key) => !routed.has(key))).toEqual([]);
  });

  it('describes the auth endpoints in full: bodies, payloads in the envelope, errors', () => {
    const register = op(doc, 'POST', '/auth/register');
    expect(register.requestBody.content['application/json'].schema).toBeDefined();
    const created = register.responses['201'].content['application/json'].schema;
    expect(created.properties).toHaveProperty('user');
    expect(created.properties).toHaveProperty('token');
    expect(created.properties).toHaveProperty('data');
    expect(register.responses['409']).toBeDefined();
    expect(register.responses['422']).toBeDefined();
    expect(register.responses['429'].headers).toHaveProperty('Retry-After');
    expect(op(doc, 'GET', '/auth/me').responses['401']).toBeDefined();
    expect(op(doc, 'GET', '/sessions/{code}').parameters).toEqual([
      expect.objectContaining({ in: 'path', name: 'code', required: true }),
    ]);
    expect(doc.components?.schemas).toHaveProperty('ErrorEnvelope');
  });

  it('writes down what the spec leaves open: envelope, error codes, rate-limit headers', () => {
    const text = doc.info.description ?? '';
    for (const words of [
      'X-RateLimit-Reset',
      'epoch seconds',
      'Retry-After',
      '`data`',
      'error: { code }',
      '422',
      'WWW-Authenticate',
    ]) {
      expect(text).toContain(words);
    }
  });
});

describe('gateway: /openapi.json and /docs', () => {
  let units: Awaited<ReturnType<typeof startStubUnits>>;
  let gateway: GatewayHarness;
  beforeAll(async () => {
    units = await startStubUnits(['identity', 'sessions']);
    gateway = await startGateway({ env: units.env });
  });
  afterAll(async () => {
    await gateway.stop();
    await units.stop();
  });

  it('serves the document and a human page', async () => {
    const client = api(gateway.url);
    const json = await client.get('/openapi.json', { headers: { 'x-forwarded-for': '10.4.0.1' } });
    expect(json.status).toBe(200);
    expect(json.body.paths).toHaveProperty(['/sessions/{code}/vote']);
    const page = await fetch(`${gateway.url}/docs/`, { headers: { 'x-forwarded-for': '10.4.0.1' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/swagger-ui/i);
  });
});
