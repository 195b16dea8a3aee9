import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInternalTransport } from './internal-transport.ts';

describe('internal transport', () => {
  let server: http.Server;
  let base: string;
  const received: Array<{ method?: string; url?: string; type?: string; body: string }> = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ method: req.method, url: req.url, type: req.headers['content-type'], body });
        if (req.url === '/api/slow') return void setTimeout(() => res.end('{}'), 500);
        if (req.url === '/api/large') return void res.end(JSON.stringify({ text: 'x'.repeat(10_000) }));
        if (req.url === '/api/html') return void res.end('<html>not json</html>');
        if (req.url === '/api/empty') return void res.writeHead(204).end();
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ echo: body ? JSON.parse(body) : null }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const transport = (timeoutMs = 2_000, maxResponseBytes = 1_000_000) =>
    createInternalTransport({ baseURL: base, timeoutMs, maxResponseBytes });

  it('sends JSON and the query under the base path, and reads the JSON answer', async () => {
    const t = transport();
    const res = await t.send<{ echo: unknown }>({
      method: 'PUT',
      url: '/internal/round',
      params: { ids: ['a', 'b'], page: 2, skipped: undefined },
      data: { version: 3, current: null },
    });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ echo: { version: 3, current: null } });
    expect(received.at(-1)).toEqual({
      method: 'PUT',
      url: '/api/internal/round?ids=a&ids=b&page=2',
      type: 'application/json',
      body: '{"version":3,"current":null}',
    });
    t.close();
  });

  it('answers undefined data for an empty answer', async () => {
    const t = transport();
    expect(await t.send({ url: '/empty' })).toMatchObject({ status: 204, data: undefined });
    t.close();
  });

  it('rejects an answer past the timeout, one over the size limit, and one that is not JSON', async () => {
    const t = transport(100, 1_000);
    await expect(t.send({ url: '/slow' })).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    await expect(t.send({ url: '/large' })).rejects.toMatchObject({ code: 'ERR_RESPONSE_TOO_LARGE' });
    await expect(t.send({ url: '/html' })).rejects.toMatchObject({ code: 'ERR_BAD_RESPONSE' });
    t.close();
  });
});
