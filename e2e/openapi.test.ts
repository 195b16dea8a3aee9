/**
 * The API's document as a client gets it from the gateway in front of the real units: every public
 * path, each unit's parameters and bodies as the unit itself describes them (from the zod schemas its
 * routes validate with), no write operation that validates a body without documenting it, and no
 * description pointing at a document outside the product.
 */
import { randomUUID } from 'node:crypto';
import { NO_BODY_TAKEN, unitOpenApi } from '@pp/http';
import { until } from '@pp/testing';
import type { OpenApiJson } from '../gateway/src/openapi/document.ts';
import { routeTable } from '../gateway/src/routes.ts';
import { aiApi } from '../services/ai/src/api/docs.ts';
import { identityApi } from '../services/identity/src/api/docs.ts';
import { integrationsApi } from '../services/integrations/src/api/docs.ts';
import { sessionsApi } from '../services/sessions/src/api/docs.ts';
import { storiesApi } from '../services/stories/src/api/docs.ts';
import { webhooksApi } from '../services/webhooks/src/api/docs.ts';
import { differencesFromDocument, responseOf } from './support/documented.ts';
import { startPlatform, type Platform } from './support/platform.ts';

const units = {
  identity: identityApi,
  sessions: sessionsApi,
  stories: storiesApi,
  integrations: integrationsApi,
  webhooks: webhooksApi,
};
const WRITES = new Set(['POST', 'PUT', 'PATCH']);

describe('the OpenAPI document of the whole API', () => {
  let p: Platform;
  let doc: OpenApiJson;
  beforeAll(async () => {
    p = await startPlatform({ integrationsEnv: {}, webhooksEnv: {} });
    // The gateway asks each unit for its description as it starts.
    doc = await until(async () => {
      const got = (await p.client.get('/openapi.json')).body as OpenApiJson;
      const described = Object.values(units).every((docs) =>
        Object.keys(docs).every((key) => {
          const [method, path] = key.split(' ') as [string, string];
          return got.paths?.[path]?.[method.toLowerCase()]?.responses !== undefined;
        }),
      );
      return described && got.paths?.['/sessions']?.post?.requestBody ? got : undefined;
    });
  });
  afterAll(() => p.stop());

  const op = (method: string, path: string) => doc.paths?.[path]?.[method.toLowerCase()];

  it('lists every public path of the route table', () => {
    const missing = routeTable.filter((r) => !op(r.method, r.path)).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });

  it('documents 409 session_archived on every change an archived session refuses', () => {
    const refused = [
      'POST /sessions/{code}/stories',
      'PATCH /stories/{story}',
      'DELETE /stories/{story}',
      'POST /stories/{story}/reveal',
      'POST /stories/{story}/reset',
      'POST /stories/{story}/activate',
      'PATCH /sessions/{code}',
      'PATCH /sessions/{code}/participants/{id}',
      'DELETE /sessions/{code}/participants/{id}',
      'POST /sessions/{code}/integrations/import-confirm',
    ];
    const undocumented = refused.filter((key) => {
      const [method, path] = key.split(' ') as [string, string];
      const conflict = responseOf(doc, op(method, path)?.responses?.['409']) as
        { description?: string } | undefined;
      return !conflict?.description?.includes('`session_archived`');
    });
    expect(undocumented).toEqual([]);
  });

  it('gives each operation the parameters and body its unit describes, with the schemas they name', () => {
    for (const [unit, docs] of Object.entries(units)) {
      const own = unitOpenApi(unit, docs) as unknown as OpenApiJson;
      for (const [path, item] of Object.entries(own.paths ?? {}))
        for (const [method, described] of Object.entries(item)) {
          const merged = op(method, path)!;
          expect({ key: `${method} ${path}`, body: merged.requestBody, params: merged.parameters }).toEqual({
            key: `${method} ${path}`,
            body: described.requestBody,
            params: described.parameters,
          });
        }
      for (const [name, schema] of Object.entries(own.components?.schemas ?? {}))
        expect(doc.components?.schemas?.[name]).toEqual(schema);
    }
  });

  it('documents the body of every write operation whose route validates one', async () => {
    const token = await p.signUp('Checker');
    const placeholders: Record<string, string> = { code: 'ABCDEF', story: randomUUID(), id: '1' };
    const validated: string[] = [];
    const bodiless: string[] = [];
    for (const route of routeTable.filter((r) => WRITES.has(r.method))) {
      const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => placeholders[name] ?? 'x');
      const res = await p.client.raw[route.method.toLowerCase() as 'post' | 'patch' | 'put'](path, {
        body: [],
        token,
      });
      // A route that validates a body answers a JSON array with 422 naming the body as a whole; one
      // that takes none says so, and documents none.
      if (res.status !== 422 || !res.body.errors?._body) continue;
      const takesNone = res.body.errors._body[0] === NO_BODY_TAKEN;
      (takesNone ? bodiless : validated).push(`${route.method} ${route.path}`);
      expect({
        route: `${route.method} ${route.path}`,
        body: op(route.method, route.path)?.requestBody,
      }).toEqual({
        route: `${route.method} ${route.path}`,
        body: takesNone ? undefined : expect.objectContaining({ content: expect.anything() }),
      });
    }
    expect(validated).toEqual(
      expect.arrayContaining(['POST /sessions', 'POST /sessions/{code}/vote', 'PATCH /stories/{story}']),
    );
    expect(bodiless).toEqual(
      expect.arrayContaining([
        'POST /stories/{story}/reveal',
        'POST /integrations/connections/{connection}/test',
      ]),
    );
  });

  it('refuses unknown fields in every request body: each object a body can be is closed', () => {
    const open: string[] = [];
    const every = { ...units, ai: aiApi };
    for (const [unit, docs] of Object.entries(every)) {
      const own = unitOpenApi(unit, docs) as unknown as OpenApiJson;
      const components = (own.components?.schemas ?? {}) as Record<string, Record<string, unknown>>;
      const walk = (schema: Record<string, unknown>, where: string): void => {
        const ref = schema.$ref as string | undefined;
        if (ref) return walk(components[ref.split('/').pop()!]!, where);
        const members = [schema.anyOf, schema.oneOf, schema.allOf].flat().filter(Boolean);
        for (const member of members as Array<Record<string, unknown>>) walk(member, where);
        if ((schema.type === 'object' || schema.properties) && schema.additionalProperties !== false)
          open.push(where);
      };
      let bodies = 0;
      for (const [path, item] of Object.entries(own.paths ?? {}))
        for (const [method, operation] of Object.entries(item)) {
          const body = (
            operation.requestBody as { content?: Record<string, { schema?: object }> } | undefined
          )?.content?.['application/json']?.schema;
          if (!body) continue;
          bodies++;
          walk(body as Record<string, unknown>, `${method.toUpperCase()} ${path}`);
        }
      expect([unit, bodies > 0]).toEqual([unit, true]);
    }
    expect(open).toEqual([]);
  });

  it('pages every list alike: 15 a page unless asked, per_page 1..100, page from 1', async () => {
    const token = await p.signUp('Pager');
    const hook = await p.client.post('/webhooks', {
      body: { url: 'https://127.0.0.1:9/in', events: ['*'] },
      token,
    });
    expect(hook.status).toBe(201);
    const room = await p.client.post('/sessions', { body: { name: 'Paged room' }, token });
    /** Lists that answer whole unless a page is asked for (a room's participants). */
    const wholeUnlessAsked = ['/sessions/{code}/participants'];
    const lists = Object.entries(doc.paths ?? {})
      .filter(([, item]) => JSON.stringify(item.get?.responses?.['200'] ?? {}).includes('PageMeta'))
      .map(([path]) => path);
    expect(lists).toEqual(
      expect.arrayContaining([
        '/sessions',
        '/folders',
        '/workspace/templates',
        '/integrations/sync-logs',
        '/webhooks',
        '/webhooks/{id}/deliveries',
        ...wholeUnlessAsked,
      ]),
    );
    for (const path of lists) {
      const url = path.replace('{id}', hook.body.webhook.id).replace('{code}', room.body.session.code);
      const first = await p.client.raw.get(wholeUnlessAsked.includes(path) ? `${url}?page=1` : url, {
        token,
      });
      expect({ path, status: first.status, meta: first.body.meta }).toEqual({
        path,
        status: 200,
        meta: { current_page: 1, per_page: 15, total: expect.any(Number), last_page: expect.any(Number) },
      });
      expect({
        path,
        per_page: (await p.client.raw.get(`${url}?per_page=100`, { token })).body.meta?.per_page,
      }).toEqual({ path, per_page: 100 });
      for (const query of ['per_page=0', 'per_page=101', 'page=0', 'page=2147483648'])
        expect({
          path,
          query,
          status: (await p.client.raw.get(`${url}?${query}`, { token })).status,
        }).toEqual({
          path,
          query,
          status: 422,
        });
    }
  });

  it("answers as it documents: a session to its owner and to anyone else, a join with the owner's token or a name", async () => {
    const owner = await p.signUp('Documented owner');
    const code = (await p.client.post('/sessions', { body: { name: 'Documented' }, token: owner })).body
      .session.code as string;
    const answers = {
      'GET /sessions/{code} (owner)': await p.client.get(`/sessions/${code}`, { token: owner }),
      'GET /sessions/{code} (anyone)': await p.client.get(`/sessions/${code}`),
      'POST /sessions/{code}/join (owner)': await p.client.post(`/sessions/${code}/join`, {
        body: {},
        token: owner,
      }),
      'POST /sessions/{code}/join (a name)': await p.client.post(`/sessions/${code}/join`, {
        body: { name: 'Guest' },
      }),
    };
    expect(answers['GET /sessions/{code} (owner)'].body.session.owner_id).toEqual(expect.any(String));
    expect(answers['POST /sessions/{code}/join (owner)'].body.session.owner_id).toEqual(expect.any(String));
    expect(answers['GET /sessions/{code} (anyone)'].body.session.owner_id).toBeUndefined();
    for (const [name, res] of Object.entries(answers)) {
      const [method, path] = name.split(' ') as [string, string];
      expect({
        name,
        status: res.status,
        differences: differencesFromDocument(doc, method, path, res),
      }).toEqual({
        name,
        status: 200,
        differences: [],
      });
    }
  });

  it('documents the export in both formats: text/csv by default, the JSON envelope with format=json', async () => {
    const token = await p.signUp('Exporter');
    const code = (await p.client.post('/sessions', { body: { name: 'Exported' }, token })).body.session
      .code as string;
    expect((await p.client.post(`/sessions/${code}/stories`, { body: { title: 'One' }, token })).status).toBe(
      201,
    );
    const csv = await p.client.get(`/sessions/${code}/export`, { token });
    const json = await p.client.get(`/sessions/${code}/export?format=json`, { token });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const exported = op('GET', '/sessions/{code}/export')!;
    expect(Object.keys(exported.responses?.['200']?.content as object).sort()).toEqual([
      'application/json',
      'text/csv',
    ]);
    for (const res of [csv, json])
      expect(differencesFromDocument(doc, 'GET', '/sessions/{code}/export', res)).toEqual([]);
    const format = (exported.parameters as Array<{ name: string; description?: string }>).find(
      (param) => param.name === 'format',
    );
    expect(format?.description).toMatch(/text\/csv/);
  });

  it("says what a folder_id not of the caller's answers: 403 for another account's folder, 404 for none", async () => {
    const [mine, theirs] = [await p.signUp('Filterer'), await p.signUp('Folder owner')];
    const folder = await p.client.post('/folders', {
      body: { name: 'Theirs', color: '#3b82f6' },
      token: theirs,
    });
    expect(folder.status).toBe(201);
    expect((await p.client.get(`/sessions?folder_id=${folder.body.folder.id}`, { token: mine })).status).toBe(
      403,
    );
    expect((await p.client.get('/sessions?folder_id=2147483000', { token: mine })).status).toBe(404);
    const param = (op('GET', '/sessions')!.parameters as Array<{ name: string; description?: string }>).find(
      (p) => p.name === 'folder_id',
    );
    expect(param?.description).toMatch(/403[^]*another account|another account[^]*403/);
    expect(param?.description).toMatch(/404/);
  });

  it('reveals a pending story as it documents: its votes, if any, and the current story stays current', async () => {
    const token = await p.signUp('Revealer');
    const code = (await p.client.post('/sessions', { body: { name: 'Reveal ahead' }, token })).body.session
      .code as string;
    const add = async (title: string) =>
      (await p.client.post(`/sessions/${code}/stories`, { body: { title }, token })).body.story;
    const [open, pending] = [await add('Open'), await add('Pending')];
    expect([open.status, pending.status]).toEqual(['voting', 'pending']);
    const revealed = await p.client.post(`/stories/${pending.id}/reveal`, { token });
    expect(revealed.status).toBe(200);
    expect(revealed.body).toMatchObject({
      story: { id: pending.id, status: 'revealed', final_estimate: null, votes: [] },
      next_story: null,
    });
    expect(differencesFromDocument(doc, 'POST', '/stories/{story}/reveal', revealed)).toEqual([]);
    expect((await p.client.get(`/sessions/${code}`)).body.session.current_story.id).toBe(open.id);
    // One set aside after a vote (another story made current) keeps that vote, and reveals it.
    const aside = await add('Set aside');
    expect((await p.client.post(`/stories/${aside.id}/activate`, { token })).status).toBe(200);
    const voter = (await p.client.post(`/sessions/${code}/join`, { body: { name: 'Voter' } })).body
      .participant;
    const voted = await p.client.post(`/sessions/${code}/vote`, {
      body: { participant_id: voter.id, vote: '5' },
    });
    expect(voted.status).toBe(200);
    expect((await p.client.post(`/stories/${open.id}/activate`, { token })).status).toBe(200);
    const kept = await p.client.post(`/stories/${aside.id}/reveal`, { token });
    expect(kept.body).toMatchObject({
      story: {
        id: aside.id,
        status: 'revealed',
        final_estimate: '5',
        votes: [expect.objectContaining({ value: '5' })],
      },
      next_story: null,
    });
    expect(differencesFromDocument(doc, 'POST', '/stories/{story}/reveal', kept)).toEqual([]);
    expect((await p.client.get(`/sessions/${code}`)).body.session.current_story.id).toBe(open.id);
    expect(op('POST', '/stories/{story}/reveal')!.description).toMatch(/`pending`/);
  });

  it('names no document outside the product in any description', () => {
    const texts: string[] = [];
    const walk = (value: unknown) => {
      if (typeof value === 'string') texts.push(value);
      else if (value && typeof value === 'object') Object.values(value).forEach(walk);
    };
    walk(doc);
    expect(texts.filter((t) => /decisions|api-spec|\.\.\/shared|spec section|section \d/i.test(t))).toEqual(
      [],
    );
  });
});
