import { z } from 'zod';
import { pageQuery, unitOpenApi, type UnitDocs } from '@pp/http';
import { api, until } from '@pp/testing';
import { mergeUnitDocuments, routeTableDocument, type OpenApiJson } from '../src/openapi/document.ts';
import { routeTable } from '../src/routes.ts';
import { startGateway, startStubUnits, type GatewayHarness } from './support/gateway-harness.ts';

const op = (doc: OpenApiJson, method: string, path: string): any => doc.paths?.[path]?.[method.toLowerCase()];

/** A unit's description of two of its paths, as a real unit gives it (from zod schemas). */
const voteBody = z.object({ participant_id: z.number().int(), vote: z.string() }).meta({ id: 'VoteRequest' });
const sessionsDocs: UnitDocs = {
  'POST /sessions/{code}/vote': {
    summary: 'Cast a vote',
    params: z.object({ code: z.string() }),
    body: voteBody,
    responses: {
      200: { description: 'The vote', payload: z.object({ vote: z.object({ id: z.number().int() }) }) },
      409: { description: 'No story open' },
    },
  },
  'GET /not/routed': { summary: 'Not in the route table' },
};

describe('gateway: the OpenAPI document', () => {
  const base = routeTableDocument(routeTable);

  it('is OpenAPI 3.1 and documents every route of the route table, with its security', () => {
    expect(base.openapi).toBe('3.1.0');
    const missing = routeTable.filter((r) => !op(base, r.method, r.path)).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
    const expected = {
      token: [{ bearerAuth: [] }],
      public: [{}, { bearerAuth: [] }],
      'token-or-participant': [{ bearerAuth: [] }, { participantToken: [] }],
    };
    for (const r of routeTable) expect(op(base, r.method, r.path).security).toEqual(expected[r.access]);
    // Round control is the one kind a participant token opens instead of a bearer token.
    expect(
      routeTable.filter((r) => r.access === 'token-or-participant').map((r) => `${r.method} ${r.path}`),
    ).toEqual([
      'POST /sessions/{code}/countdown',
      'DELETE /sessions/{code}/countdown',
      'POST /stories/{story}/reveal',
      'POST /stories/{story}/reset',
      'POST /stories/{story}/activate',
    ]);
    expect(base.components?.securitySchemes?.participantToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Participant-Token',
    });
  });

  it('documents nothing the gateway does not route (besides its own endpoints)', () => {
    const own = new Set(['/', '/healthz', '/readyz', '/openapi.json']);
    const routed = new Set(routeTable.map((r) => `${r.method} ${r.path}`));
    const merged = mergeUnitDocuments(base, [unitOpenApi('sessions', sessionsDocs) as OpenApiJson]);
    const extra = Object.entries(merged.paths ?? {}).flatMap(([path, item]) =>
      own.has(path)
        ? []
        : Object.keys(item)
            .map((m) => `${m.toUpperCase()} ${path}`)
            .filter((k) => !routed.has(k)),
    );
    expect(extra).toEqual([]);
  });

  it("lays a unit's description over the table: body, parameters, documented answers, and the gateway's own answers stay", () => {
    const merged = mergeUnitDocuments(base, [unitOpenApi('sessions', sessionsDocs) as OpenApiJson]);
    const vote = op(merged, 'POST', '/sessions/{code}/vote');
    expect(vote.summary).toBe('Cast a vote');
    expect(vote.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/VoteRequest',
    });
    expect(merged.components?.schemas).toHaveProperty('VoteRequest');
    expect(vote.parameters).toEqual([expect.objectContaining({ in: 'path', name: 'code', required: true })]);
    const ok = vote.responses['200'];
    expect(ok.content['application/json'].schema.properties).toHaveProperty('vote');
    expect(ok.content['application/json'].schema.properties).toHaveProperty('data');
    expect(ok.headers).toEqual(op(base, 'POST', '/sessions/{code}/vote').responses['200'].headers);
    expect(vote.responses['409'].description).toBe('No story open');
    for (const status of ['415', '422', '429', '503']) expect(vote.responses[status]).toBeDefined();
    expect(vote.responses['429'].headers).toHaveProperty('Retry-After');
    expect(vote.security).toEqual([{}, { bearerAuth: [] }]);
  });

  it("documents the headers a unit sends beside the gateway's own (never Content-Type, which is the media type)", () => {
    const withHeaders: UnitDocs = {
      'GET /sessions/{code}/export': {
        params: z.object({ code: z.string() }),
        responses: {
          200: {
            description: 'The export',
            headers: { 'Content-Disposition': 'attachment; a file name', 'Content-Type': 'text/csv' },
          },
        },
      },
    };
    const merged = mergeUnitDocuments(base, [unitOpenApi('stories', withHeaders) as OpenApiJson]);
    const headers = op(merged, 'GET', '/sessions/{code}/export').responses['200'].headers;
    expect(headers['Content-Disposition']).toMatchObject({ description: 'attachment; a file name' });
    expect(headers).toHaveProperty('X-RateLimit-Limit');
    expect(Object.keys(headers).map((h) => h.toLowerCase())).not.toContain('content-type');
  });

  it('documents what an operation with a query answers of it: 400 for a wrong type, 422 out of range', () => {
    const withQuery: UnitDocs = {
      'GET /sessions': { summary: 'List', query: pageQuery },
      'POST /sessions/{code}/vote': {
        summary: 'Vote',
        params: z.object({ code: z.string() }),
        query: pageQuery,
      },
    };
    const merged = mergeUnitDocuments(base, [unitOpenApi('sessions', withQuery) as OpenApiJson]);
    const list = op(merged, 'GET', '/sessions');
    expect(list.parameters).toContainEqual(expect.objectContaining({ in: 'query', name: 'per_page' }));
    expect(list.responses['400'].description).toContain('`invalid_query`');
    expect(list.responses['422'].description).toContain('out of range');
    expect(list.responses['422'].content).toEqual(list.responses['429'].content);
    // A write keeps its body's 400 and names the query's beside it.
    const vote = op(merged, 'POST', '/sessions/{code}/vote');
    expect(vote.responses['400'].description).toMatch(/^The body is not valid JSON; or a query value/);
    // Without a query, nothing is added.
    const plain = op(
      mergeUnitDocuments(base, [unitOpenApi('sessions', sessionsDocs) as OpenApiJson]),
      'GET',
      '/sessions',
    );
    expect(plain.responses['400']).toBeUndefined();
  });

  it('writes down what the API promises beyond the paths: envelope, error codes, rate-limit headers', () => {
    const text = base.info.description ?? '';
    for (const words of [
      'X-RateLimit-Reset',
      'epoch seconds',
      'Retry-After',
      '`data`',
      'error: { code }',
      '422',
      'WWW-Authenticate',
      'JSON-RPC',
    ])
      expect(text).toContain(words);
  });
});

describe('gateway: /openapi.json from the units, and /docs', () => {
  let units: Awaited<ReturnType<typeof startStubUnits>>;
  let gateway: GatewayHarness;
  const client = () => api(gateway.url);
  const vote = async () => op((await client().get('/openapi.json')).body, 'POST', '/sessions/{code}/vote');
  afterEach(async () => {
    await gateway.stop();
    await units.stop();
  });

  it("serves the units' descriptions, keeps the last one of a unit that went down, and a human page", async () => {
    units = await startStubUnits(['identity', 'sessions'], { sessions: sessionsDocs });
    gateway = await startGateway({ env: units.env });
    await until(async () => (await vote())?.requestBody);
    await units.stubs.sessions!.stop();
    await gateway.documents.refresh(true);
    expect((await vote()).requestBody).toBeDefined();
    const page = await fetch(`${gateway.url}/docs/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/swagger-ui/i);
  });

  it('offers a CORS preflight exactly the methods the route table documents (HEAD with GET)', async () => {
    units = await startStubUnits(['identity', 'sessions']);
    gateway = await startGateway({ env: units.env });
    const res = await fetch(`${gateway.url}/sessions/ABCDEF`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'PATCH' },
    });
    expect(res.status).toBe(204);
    const offered = (res.headers.get('access-control-allow-methods') ?? '').split(',').sort();
    expect(offered).toEqual([...new Set([...routeTable.map((r) => r.method), 'HEAD'])].sort());
  });

  it('describes a unit that was down when the gateway started once it answers', async () => {
    units = await startStubUnits(['identity', 'sessions'], { sessions: sessionsDocs });
    await units.stubs.sessions!.stop();
    gateway = await startGateway({ env: units.env, docsRetryMs: 100 });
    await gateway.documents.refresh();
    const before = await vote();
    expect(before).toBeDefined(); // from the route table alone
    expect(before.requestBody).toBeUndefined();
    await units.stubs.sessions!.start();
    await until(async () => (await vote())?.requestBody);
  });
});
