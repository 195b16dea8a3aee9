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

  describe('on a kept-alive connection the unit has closed', () => {
    /** A unit that drops the connection, unread, at the request numbers `drop` picks (counted per connection). */
    async function dropping(drop: (nthOnConnection: number) => boolean) {
      const seen: number[] = [];
      const unit = http.createServer((req, res) => {
        const socket = req.socket as typeof req.socket & { served?: number };
        socket.served = (socket.served ?? 0) + 1;
        seen.push(socket.served);
        if (drop(socket.served)) return void socket.destroy();
        req.resume();
        res.setHeader('content-type', 'application/json');
        res.end('{"ok":true}');
      });
      await new Promise<void>((resolve) => unit.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(unit.address() as AddressInfo).port}`;
      const t = createInternalTransport({ baseURL: url, timeoutMs: 2_000, maxResponseBytes: 1_000 });
      return {
        t,
        seen,
        stop: () => {
          t.close();
          unit.closeAllConnections();
          return new Promise((resolve) => unit.close(resolve));
        },
      };
    }

    it('sends the request once more, on a new connection, when a pooled one turns out closed', async () => {
      // The second request on a connection meets it closed (as when the unit restarts, or closes it as idle just then).
      const unit = await dropping((n) => n === 2);
      try {
        expect((await unit.t.send({ url: '/first' })).status).toBe(200);
        const res = await unit.t.send({ method: 'PUT', url: '/round', data: { version: 2 } });
        expect(res).toMatchObject({ status: 200, data: { ok: true } });
        // The first call, the one the closed connection lost, and the same again on a new connection.
        expect(unit.seen).toEqual([1, 2, 1]);
      } finally {
        await unit.stop();
      }
    });

    it('does not send it again when a new connection fails: that is the unit failing, for the caller to see', async () => {
      const unit = await dropping(() => true);
      try {
        await expect(unit.t.send({ url: '/first' })).rejects.toMatchObject({ code: 'ECONNRESET' });
        expect(unit.seen).toEqual([1]);
      } finally {
        await unit.stop();
      }
    });
  });
});
