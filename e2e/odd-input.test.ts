/**
 * Input no client library would send, through the gateway in front of the real units: text that no
 * database column can store (a lone surrogate, a NUL character) in every write of the route table,
 * a compressed body that is not what its Content-Encoding says, and headers over node's limit. Each is a 4xx with the error envelope; none reaches a database.
 */
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { routeTable } from '../gateway/src/routes.ts';
import { startPlatform, type Platform } from './support/platform.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH']);
/** The units this platform runs (the others answer 503 through its gateway). */
const RUNNING = new Set(['identity', 'sessions', 'stories', 'ai']);

describe('odd input through the gateway', () => {
  let p: Platform;
  let token: string;
  const placeholders: Record<string, string> = {};
  beforeAll(async () => {
    p = await startPlatform({ aiEnv: {} });
    token = await p.signUp('Odd');
    const session = await p.client.post('/sessions', { body: { name: 'Odd input' }, token });
    const story = await p.client.post(`/sessions/${session.body.session.code}/stories`, {
      body: { title: 'A story' },
      token,
    });
    const joined = await p.client.post(`/sessions/${session.body.session.code}/join`, {
      body: { name: 'Bob' },
    });
    Object.assign(placeholders, {
      code: session.body.session.code,
      story: story.body.story.id,
      id: String(joined.body.participant.id),
    });
  });
  afterAll(() => p.stop());

  const writes = () =>
    routeTable
      .filter((r) => WRITES.has(r.method) && RUNNING.has(r.unit))
      .map((r) => ({
        key: `${r.method} ${r.path}`,
        method: r.method.toLowerCase() as 'post' | 'patch' | 'put',
        path: r.path.replace(/\{(\w+)\}/g, (_m, name: string) => placeholders[name] ?? 'x'),
      }));

  it.each([
    ['a lone surrogate', '\ud800'],
    ['a NUL character', 'a\u0000b'],
  ])('refuses %s in any field of any write that takes a body with 422, never a 5xx', async (_name, text) => {
    const fields = ['name', 'title', 'description', 'email', 'password', 'vote', 'text', 'prompt', 'url'];
    const body = Object.fromEntries(fields.map((f) => [f, text]));
    const answers: Array<{ key: string; status: number; success: unknown }> = [];
    for (const w of writes()) {
      const res = await p.client.raw[w.method](w.path, { body, token });
      answers.push({ key: w.key, status: res.status, success: res.body?.success });
    }
    // Every write refuses it: those that take fields name the field, and those that take none (a
    // reveal, a reset) refuse any field.
    expect(answers.filter((a) => a.status >= 500 || typeof a.success !== 'boolean')).toEqual([]);
    expect(answers.filter((a) => a.status !== 422 && a.status !== 404)).toEqual([]);
    // The story's own writes (where a lone surrogate was once a 500) name the field.
    const add = await p.client.post(`/sessions/${placeholders.code}/stories`, {
      body: { title: text },
      token,
    });
    expect([add.status, Object.keys(add.body.errors ?? {})]).toEqual([422, ['title']]);
    const edit = await p.client.patch(`/stories/${placeholders.story}`, {
      body: { description: text },
      token,
    });
    expect([edit.status, Object.keys(edit.body.errors ?? {})]).toEqual([422, ['description']]);
  });

  it('answers 400 for a compressed body that is not what its Content-Encoding says, on any write; takes a real one', async () => {
    const send = (method: string, path: string, encoding: string, body: Buffer) =>
      fetch(p.url + path, {
        method,
        headers: {
          'content-type': 'application/json',
          'content-encoding': encoding,
          authorization: `Bearer ${token}`,
        },
        body,
      });
    const answers: Array<{ key: string; status: number; code: unknown }> = [];
    for (const w of writes())
      for (const encoding of ['gzip', 'br']) {
        const res = await send(w.method.toUpperCase(), w.path, encoding, Buffer.from('{"name":"plain"}'));
        const body = (await res.json()) as { error?: { code?: unknown } };
        answers.push({ key: `${w.key} ${encoding}`, status: res.status, code: body.error?.code });
      }
    expect(answers.filter((a) => a.status !== 400 || a.code !== 'invalid_content_encoding')).toEqual([]);
    const zipped = await send(
      'POST',
      `/sessions/${placeholders.code}/stories`,
      'gzip',
      gzipSync(JSON.stringify({ title: 'Sent gzipped' })),
    );
    expect([zipped.status, ((await zipped.json()) as any).story.title]).toEqual([201, 'Sent gzipped']);
  });

  it('answers 404 for a path value that cannot name anything, on every path of the route table that takes one', async () => {
    const answers: Array<{ key: string; status: number; code: unknown }> = [];
    for (const r of routeTable.filter((r) => RUNNING.has(r.unit) && /\{/.test(r.path) && !r.stream))
      for (const odd of ['0x10', 'x'.repeat(65), 'a%00b']) {
        const path = r.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
          name === 'code' && odd !== 'a%00b' ? placeholders.code! : odd,
        );
        if (path === r.path.replace(/\{(\w+)\}/g, () => placeholders.code!)) continue;
        const res = await fetch(p.url + path, {
          method: r.method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          ...(WRITES.has(r.method) ? { body: '{}' } : {}),
        });
        const body = (await res.json()) as { error?: { code?: unknown } };
        answers.push({ key: `${r.method} ${path.slice(0, 60)}`, status: res.status, code: body.error?.code });
      }
    expect(answers.length).toBeGreaterThan(20);
    expect(answers.filter((a) => a.status !== 404)).toEqual([]);
  });

  it('reads a session code alike on every path: any case names the session; padded, or with a letter outside ASCII, none', async () => {
    // A code with an S, to spell it with the long s (which upper-cases to S).
    let code = placeholders.code!;
    for (let i = 0; i < 60 && !code.includes('S'); i++)
      code = (await p.client.post('/sessions', { body: { name: 'Spelt' }, token })).body.session.code;
    const paths = routeTable
      .filter((r) => r.method === 'GET' && RUNNING.has(r.unit) && r.path.startsWith('/sessions/{code}'))
      .map((r) => r.path);
    expect(paths.length).toBeGreaterThan(5);
    const statuses = async (spelt: string) => {
      const answers: string[] = [];
      for (const path of paths) {
        const url = `${p.url}${path.replace('{code}', spelt)}`;
        const res = await fetch(url, { method: 'HEAD', headers: { authorization: `Bearer ${token}` } });
        answers.push(`${path} ${res.status === 404 ? 404 : 'found'}`);
      }
      return answers;
    };
    expect(await statuses(code.toLowerCase())).toEqual(paths.map((path) => `${path} found`));
    for (const odd of [
      `%20${code}`,
      `${code}%09`,
      `${code}%E2%80%83`,
      encodeURIComponent(code.replace('S', 'ſ')),
    ])
      expect([odd, await statuses(odd)]).toEqual([odd, paths.map((path) => `${path} 404`)]);
  });

  it('answers 400 invalid_query for a query number not in decimal digits or a key given twice; 422 out of range', async () => {
    const list = async (query: string) => {
      const res = await p.client.get(`/sessions?${query}`, { token });
      return [query, res.status, res.body.error?.code ?? null];
    };
    for (const query of [
      'page=0x10',
      'per_page=1e1',
      'per_page=',
      'page=1&page=2',
      'status=active&status=paused',
      // folder_id is a number or `none`: a value that is neither is of the wrong type too
      'folder_id=0x10',
      'folder_id=',
      'folder_id=abc',
    ])
      expect(await list(query)).toEqual([query, 400, 'invalid_query']);
    expect(await list('per_page=101')).toEqual(['per_page=101', 422, 'validation_failed']);
    expect(await list('folder_id=0')).toEqual(['folder_id=0', 422, 'validation_failed']);
    expect(await list('per_page=10')).toEqual(['per_page=10', 200, null]);
  });

  it('answers headers over 16 KB with 431 and the error envelope', async () => {
    const { port } = new URL(p.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(
          `GET /auth/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(20_000)}\r\n\r\n`,
        ),
      );
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error.code).toBe('headers_too_large');
  });
});
