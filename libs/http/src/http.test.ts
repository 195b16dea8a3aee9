import { createHmac } from 'node:crypto';
import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { createLogger } from '@pp/logger';
import {
  createServiceApp,
  listen,
  send,
  sendToUnit,
  validate,
  signIdentity,
  requireUser,
  NotFoundError,
  urlInteger,
  type RunningServer,
} from './index.ts';

const KEY = 'k'.repeat(40);
/** What the gateway signs for this unit (named `sessions` here). */
const FOR_HERE = { iss: 'gateway', aud: 'sessions' };
let server: RunningServer;
let ready = true;

beforeAll(async () => {
  const app = createServiceApp({
    logger: createLogger({ name: 'http-test', level: 'silent' }),
    unit: 'sessions',
    identityKey: KEY,
    bodyLimit: '64kb',
    readiness: {
      database: async () => {
        if (!ready) throw new Error('down');
      },
    },
    routes: (a) => {
      a.post(
        '/things/:id',
        validate(
          {
            params: z.object({ id: z.coerce.number().int() }),
            body: z.object({ name: z.string().min(1).max(5) }),
            query: z.object({
              n: urlInteger(z.number().int().max(3).optional()),
              tag: z.enum(['a', 'b']).optional(),
            }),
          },
          (input, _req, res) => send(res, 201, { thing: { id: input.params.id, name: input.body.name } }),
        ),
      );
      a.post(
        '/things/:id/act',
        validate({ params: z.object({ id: z.coerce.number().int() }) }, (input, _req, res) =>
          send(res, 200, { thing: { id: input.params.id } }),
        ),
      );
      a.get(
        '/needs-query',
        validate({ query: z.object({ state: z.string() }) }, (input, _req, res) =>
          send(res, 200, { thing: { state: input.query.state } }),
        ),
      );
      a.get('/boom', () => {
        throw new Error('SELECT * FROM secret_table at db-host-7');
      });
      a.get('/missing', () => {
        throw new NotFoundError('Session not found', 'session_not_found');
      });
      a.get('/me', (req, res) => send(res, 200, { user: { id: requireUser(req).sub } }));
      a.get('/public-thing', (_req, res) => send(res, 200, { thing: { id: 1 } }));
      a.get('/internal/thing', (_req, res) => sendToUnit(res, 200, { thing: { id: 1 } }));
    },
  });
  server = await listen(app, 0, '127.0.0.1');
});
afterAll(() => server.close());

const post = (path: string, body: string, type = 'application/json') =>
  fetch(server.url + path, { method: 'POST', headers: { 'content-type': type }, body });

/** Sends bytes as they are (no HTTP client would send them) and resolves with the whole answer. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('service app', () => {
  it('returns the payload under its resource key and under data', async () => {
    const res = await post('/things/7', JSON.stringify({ name: 'ab' }));
    expect(res.status).toBe(201);
    expect((await res.json()) as any).toEqual({
      success: true,
      thing: { id: 7, name: 'ab' },
      data: { thing: { id: 7, name: 'ab' } },
    });
  });

  it('answers another unit with the payload once and no ETag; a public GET keeps both', async () => {
    const internal = await fetch(`${server.url}/internal/thing`);
    expect(internal.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(internal.headers.get('etag')).toBeNull();
    expect(await internal.json()).toEqual({ success: true, thing: { id: 1 } });
    const open = await fetch(`${server.url}/public-thing`);
    expect(open.headers.get('etag')).not.toBeNull();
    expect(await open.json()).toEqual({ success: true, thing: { id: 1 }, data: { thing: { id: 1 } } });
  });

  it('answers a change without an ETag, a read with one that a conditional read turns into 304', async () => {
    const body = JSON.stringify({ name: 'ab' });
    const changed = await post('/things/7', body);
    expect(changed.status).toBe(201);
    expect(changed.headers.get('etag')).toBeNull();
    expect(changed.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await changed.text();
    expect(Number(changed.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(JSON.parse(text)).toMatchObject({ success: true, thing: { id: 7, name: 'ab' } });
    const refused = await post('/things/7', JSON.stringify({ name: 'too long name' }));
    expect(refused.status).toBe(422);
    expect(refused.headers.get('etag')).toBeNull();
    const read = await fetch(`${server.url}/public-thing`);
    const etag = read.headers.get('etag');
    expect(etag).not.toBeNull();
    // Sent as it is: fetch adds cache-control: no-cache to a conditional request, which asks for the body.
    const again = await raw(
      `GET /public-thing HTTP/1.1\r\nHost: x\r\nIf-None-Match: ${etag}\r\nConnection: close\r\n\r\n`,
    );
    expect(again).toMatch(/^HTTP\/1\.1 304 /);
  });

  it('answers 422 with errors by field when validation fails', async () => {
    const res = await post('/things/7', JSON.stringify({ name: 'too long name' }));
    expect(res.status).toBe(422);
    const body = (await res.json()) as any as any;
    expect(body).toMatchObject({ success: false, error: { code: 'validation_failed' } });
    expect(Object.keys(body.errors)).toEqual(['name']);
  });

  it('answers 422 for a NUL character in any text (no database column can store it), naming the field', async () => {
    const res = await post('/things/7?n=1', JSON.stringify({ name: 'a\u0000b' }));
    expect(res.status).toBe(422);
    expect(((await res.json()) as any).errors).toEqual({
      name: ['must not contain the NUL character (\\u0000)'],
    });
    const inQuery = await post('/things/7?n=%00', JSON.stringify({ name: 'ab' }));
    expect(inQuery.status).toBe(422);
    expect(Object.keys(((await inQuery.json()) as any).errors)).toEqual(['query.n']);
  });

  it('answers 422 for a lone surrogate in any text or key (no text or JSON column takes it), naming the field', async () => {
    const lone = await post('/things/7', '{"name":"a\\ud800"}');
    expect(lone.status).toBe(422);
    expect(((await lone.json()) as any).errors).toEqual({
      name: ['must be valid Unicode (a lone surrogate such as \\ud800 is not)'],
    });
    const inKey = await post('/things/7', '{"name":"ab","\\udc00":1}');
    expect(Object.keys(((await inKey.json()) as any).errors)).toEqual(['\udc00']);
    // A pair of surrogates is one character (here an emoji), and welcome.
    expect((await post('/things/7', '{"name":"\\ud83d\\ude00"}')).status).toBe(201);
  });

  it('answers what the HTTP parser refuses (headers over 16 KB, not HTTP) with the JSON error envelope', async () => {
    const big = await raw(
      `GET /me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(big).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(big.slice(big.indexOf('\r\n\r\n') + 4))).toEqual({
      success: false,
      message: expect.stringContaining('headers are too large'),
      error: { code: 'headers_too_large' },
    });
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(garbage).toContain('"code":"bad_request"');
  });

  it('answers 400 for malformed JSON and a query value of the wrong type', async () => {
    const bad = await post('/things/7', '{"name": ');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.code).toBe('invalid_json');
    expect((await post('/things/7?n=abc', JSON.stringify({ name: 'a' }))).status).toBe(400);
    expect((await post('/things/7?n=9', JSON.stringify({ name: 'a' }))).status).toBe(422);
  });

  it('answers 400 invalid_json for a body whose bytes are not UTF-8, and reads one that is', async () => {
    const send = (bytes: Buffer, type = 'application/json') =>
      fetch(`${server.url}/things/7`, { method: 'POST', headers: { 'content-type': type }, body: bytes });
    for (const bad of [Buffer.from([0xff, 0xfe]), Buffer.from([0xc3]), Buffer.from([0xed, 0xa0, 0x80])]) {
      const body = Buffer.concat([Buffer.from('{"name":"'), bad, Buffer.from('"}')]);
      for (const type of ['application/json', 'application/json; charset=utf-8']) {
        const res = await send(body, type);
        expect([res.status, ((await res.json()) as any).error.code]).toEqual([400, 'invalid_json']);
      }
    }
    const ok = await send(Buffer.from('{"name":"café"}'));
    expect(((await ok.json()) as any).thing.name).toBe('café');
  });

  it('reads a whole number in a query only as decimal digits, and a key given twice as the wrong type', async () => {
    const query = async (q: string) => {
      const res = await post(`/things/7?${q}`, JSON.stringify({ name: 'a' }));
      return [res.status, ((await res.json()) as any).error?.code ?? null];
    };
    for (const written of ['n=0x2', 'n=1e0', 'n=', 'n=%202', 'n=-1', 'n=1.0'])
      expect([written, ...(await query(written))]).toEqual([written, 400, 'invalid_query']);
    expect(await query('n=1&n=2')).toEqual([400, 'invalid_query']);
    expect(await query('tag=a&tag=b')).toEqual([400, 'invalid_query']);
    expect(await query('n=2')).toEqual([201, null]);
    const missing = await fetch(`${server.url}/needs-query`);
    expect([missing.status, ((await missing.json()) as any).message]).toEqual([
      400,
      'Query parameter state is missing',
    ]);
    expect(await query('n=4')).toEqual([422, 'validation_failed']);
  });

  it('answers 404 for a path value that cannot name anything (not a number, a NUL character), as for an unknown one', async () => {
    for (const id of ['abc', '7.5', '%00', 'a%00b']) {
      const res = await post(`/things/${id}/act`, '{}');
      expect([id, res.status, ((await res.json()) as any).error.code]).toEqual([id, 404, 'not_found']);
    }
    expect((await post('/things/7/act', '{}')).status).toBe(200);
  });

  it('reads a compressed body, and answers 400 for one that is not what its Content-Encoding says', async () => {
    const body = JSON.stringify({ name: 'zip' });
    const send = (encoding: string, data: Buffer) =>
      fetch(`${server.url}/things/7`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body: data,
      });
    for (const [encoding, data] of [
      ['gzip', gzipSync(body)],
      ['deflate', deflateSync(body)],
      ['br', brotliCompressSync(body)],
    ] as const)
      expect([encoding, (await send(encoding, data)).status]).toEqual([encoding, 201]);
    for (const [encoding, data] of [
      ['gzip', Buffer.from(body)],
      ['gzip', gzipSync(body).subarray(0, 12)],
      ['deflate', Buffer.from('not deflated')],
      ['br', Buffer.from('not brotli')],
      ['zstd', Buffer.from('not zstd')],
    ] as const) {
      const res = await send(encoding, data);
      expect([encoding, res.status]).toEqual([encoding, 400]);
      expect(((await res.json()) as any).error.code).toBe('invalid_content_encoding');
    }
    const unknown = await send('compress', Buffer.from(body));
    expect(unknown.status).toBe(415);
    expect(((await unknown.json()) as any).error.code).toBe('unsupported_encoding');
  });

  it('answers 415 for a body that is not JSON, whatever it claims to be or when it claims nothing', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
    ]) {
      const res = await post('/things/7', 'name=x', type);
      expect([type, res.status]).toEqual([type, 415]);
      expect(((await res.json()) as any).success).toBe(false);
    }
    const untyped = await fetch(server.url + '/things/7', {
      method: 'POST',
      body: Buffer.from('{"name":"a"}'),
    });
    expect(untyped.status).toBe(415);
    expect(((await untyped.json()) as any).error.code).toBe('unsupported_content_type');
    expect(
      (await post('/things/7', JSON.stringify({ name: 'a' }), 'application/merge-patch+json')).status,
    ).toBe(201);
  });

  it('answers 422 naming the body for valid JSON that is not an object', async () => {
    for (const body of ['null', '[]', '[{"name":"a"}]', '3', '"a"', 'true']) {
      const res = await post('/things/7', body);
      expect([body, res.status]).toEqual([body, 422]);
      expect([body, ((await res.json()) as any).errors]).toEqual([
        body,
        { _body: ['must be a JSON object'] },
      ]);
    }
  });

  it('takes no body or {} on a path that documents none, and refuses anything else naming the fields', async () => {
    expect((await fetch(`${server.url}/things/7/act`, { method: 'POST' })).status).toBe(200);
    expect((await post('/things/7/act', '{}')).status).toBe(200);
    const cases: Array<[string, string]> = [
      ['{"final_estimate":"8","x":1}', 'This path takes no body: send none, or {}: "final_estimate", "x"'],
      ['[]', 'This path takes no body: send none, or {}'],
      ['null', 'This path takes no body: send none, or {}'],
    ];
    for (const [body, message] of cases) {
      const res = await post('/things/7/act', body);
      expect([body, res.status, ((await res.json()) as any).errors]).toEqual([
        body,
        422,
        { _body: [message] },
      ]);
    }
  });

  it('answers 422 naming the limit for a body nested too deep or too large in entries, before anything walks it', async () => {
    const deep = (levels: number, inner = '"x"') => '{"a":'.repeat(levels) + inner + '}'.repeat(levels);
    for (const body of [deep(5_000), '['.repeat(5_000) + ']'.repeat(5_000), deep(65)]) {
      const res = await post('/things/7', body);
      expect(res.status).toBe(422);
      expect(((await res.json()) as any).errors).toEqual({ _body: ['nested deeper than 64 levels'] });
    }
    const wide = await post('/things/7', JSON.stringify({ name: 'a', list: new Array(10_000).fill(0) }));
    expect(wide.status).toBe(422);
    expect(((await wide.json()) as any).errors).toEqual({
      _body: ['more than 10000 keys and array elements in all'],
    });
    // At the limits the body reaches validation, which still finds a NUL character at the bottom.
    const atLimit = `{"name":"ab","x":${deep(62, '"\\u0000"')},"list":${JSON.stringify(new Array(9_000).fill(0))}}`;
    const res = await post('/things/7', atLimit);
    expect(res.status).toBe(422);
    expect(Object.keys(((await res.json()) as any).errors)).toEqual([
      `x.${new Array(62).fill('a').join('.')}`,
    ]);
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await post('/things/7', JSON.stringify({ name: 'x'.repeat(70_000) }));
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).error.code).toBe('payload_too_large');
  });

  it('never leaks a stack, SQL or a host name on an unexpected error', async () => {
    const res = await fetch(server.url + '/boom');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(/secret_table|db-host|at |Error:/);
    expect(JSON.parse(text)).toEqual({
      success: false,
      message: 'Something went wrong on our side',
      error: { code: 'internal_error' },
    });
  });

  it('answers an unknown path and a missing resource with 404 and the envelope', async () => {
    expect(((await (await fetch(server.url + '/nope')).json()) as any).error.code).toBe('route_not_found');
    const res = await fetch(server.url + '/missing');
    expect(res.status).toBe(404);
    expect(((await res.json()) as any).error.code).toBe('session_not_found');
  });

  it('refuses a forged identity header and accepts a signed one', async () => {
    const forged = signIdentity('x'.repeat(40), { sub: 'u1', kind: 'user', ...FOR_HERE });
    const refused = await fetch(server.url + '/me', { headers: { 'x-pp-identity': forged } });
    expect(refused.status).toBe(401);
    const anonymous = await fetch(server.url + '/me');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    const ok = await fetch(server.url + '/me', {
      headers: { 'x-pp-identity': signIdentity(KEY, { sub: 'u1', kind: 'user', ...FOR_HERE }) },
    });
    expect((await ok.json()) as any).toMatchObject({ user: { id: 'u1' } });
  });

  it('refuses an identity signed for another unit, or for none, with the platform key', async () => {
    const me = (header: string) => fetch(server.url + '/me', { headers: { 'x-pp-identity': header } });
    const forStories = signIdentity(KEY, { sub: 'u1', kind: 'user', iss: 'gateway', aud: 'stories' });
    // Twice: a refused header is not kept among those verified.
    for (let i = 0; i < 2; i++) {
      const refused = await me(forStories);
      expect([refused.status, ((await refused.json()) as any).error.code]).toEqual([401, 'invalid_identity']);
    }
    // Signed as before audiences existed: the platform's key, no `iss` nor `aud`.
    const iat = Math.floor(Date.now() / 1000);
    const body = Buffer.from(JSON.stringify({ sub: 'u1', kind: 'user', iat, exp: iat + 60 })).toString(
      'base64url',
    );
    const unaddressed = `${body}.${createHmac('sha256', KEY).update(body).digest('base64url')}`;
    expect((await me(unaddressed)).status).toBe(401);
  });

  it('refuses an expired identity', async () => {
    const old = signIdentity(KEY, { sub: 'u1', kind: 'user', ...FOR_HERE }, 60, Date.now() - 120_000);
    expect((await fetch(server.url + '/me', { headers: { 'x-pp-identity': old } })).status).toBe(401);
  });

  it('refuses a header it accepted before once that header has expired', async () => {
    // Signed to expire in the next second: accepted now, and refused (not served from what was verified) after.
    const header = signIdentity(KEY, { sub: 'u1', kind: 'user', ...FOR_HERE }, 1);
    const me = () => fetch(server.url + '/me', { headers: { 'x-pp-identity': header } });
    expect((await me()).status).toBe(200);
    expect((await me()).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2_100));
    expect((await me()).status).toBe(401);
  });

  it('echoes the request id and reports readiness by dependency', async () => {
    const res = await fetch(server.url + '/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
    expect((await fetch(server.url + '/readyz')).status).toBe(200);
    ready = false;
    const notReady = await fetch(server.url + '/readyz');
    expect(notReady.status).toBe(503);
    expect(((await notReady.json()) as any).down).toEqual(['database']);
    ready = true;
  });

  it('exposes request duration metrics by route', async () => {
    const text = await (await fetch(server.url + '/metrics')).text();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="POST",route="\/things\/:id",status="201"\}/,
    );
  });
});

describe('listen: close', () => {
  it('lets a request in flight finish, then closes its keep-alive connection at once', async () => {
    const { default: http } = await import('node:http');
    const express = (await import('express')).default;
    const app = express();
    app.get('/slow', (_req, res) => void setTimeout(() => res.send('done'), 200));
    const running = await listen(app, 0, '127.0.0.1');
    const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
    const body = new Promise<string>((resolve) => {
      http.get(`${running.url}/slow`, { agent }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve(text));
      });
    });
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await running.close();
    expect(await body).toBe('done');
    expect(Date.now() - started).toBeLessThan(2_000);
    agent.destroy();
  });
});
