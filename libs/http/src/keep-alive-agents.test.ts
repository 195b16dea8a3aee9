import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { closeIdleConnections, keepAliveAgent } from './keep-alive-agents.ts';

/** A server that answers after `delayMs` and keeps idle connections `keepAliveMs` (plus Node's buffer). */
async function startServer(keepAliveMs: number, delayMs = 0) {
  const open = new Set<Socket>();
  let connections = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    setTimeout(() => res.end('ok'), delayMs);
  });
  server.keepAliveTimeout = keepAliveMs;
  server.on('connection', (socket: Socket) => {
    connections++;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    open: () => open.size,
    connections: () => connections,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

function get(url: string, agent: http.Agent, onSocket?: (socket: Socket) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve(body));
    });
    request.on('error', reject);
    if (onSocket) request.on('socket', onSocket);
  });
}

/** How long until the server has no open connection (ms), or Infinity after `withinMs`. */
async function closedAfter(open: () => number, withinMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    if (open() === 0) return Date.now() - started;
    await sleep(20);
  }
  return Infinity;
}

describe('kept-alive agents', () => {
  const servers: Array<{ close: () => Promise<unknown> }> = [];
  const agents: http.Agent[] = [];
  afterEach(async () => {
    agents.splice(0).forEach((a) => a.destroy());
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('close a pooled connection once it has been idle for their limit, long before the server would', async () => {
    const server = await startServer(10_000);
    servers.push(server);
    const agent = closeIdleConnections(new http.Agent({ keepAlive: true }), 200);
    agents.push(agent);
    expect(await get(server.url, agent)).toBe('ok');
    expect(server.open()).toBe(1);
    expect(await closedAfter(server.open, 2_000)).toBeLessThan(1_000);
  });

  it("close it a second before the server's announced keep-alive timeout when that comes first", async () => {
    // The server announces `Keep-Alive: timeout=2` and closes an idle connection after 2 s (3 s with Node's buffer).
    const server = await startServer(2_000);
    servers.push(server);
    const agent = keepAliveAgent();
    agents.push(agent);
    expect(await get(server.url, agent)).toBe('ok');
    const closed = await closedAfter(server.open, 3_000);
    expect(closed).toBeGreaterThan(500);
    expect(closed).toBeLessThan(1_800);
  });

  it('reuse a connection taken again in time, and leave a slow answer on it to its request', async () => {
    const server = await startServer(10_000, 400);
    servers.push(server);
    const agent = closeIdleConnections(new http.Agent({ keepAlive: true }), 200);
    agents.push(agent);
    expect(await get(server.url, agent)).toBe('ok');
    await sleep(50);
    // The answer takes twice the pool's idle limit: the connection is busy, not idle.
    let timeout: number | undefined;
    expect(await get(server.url, agent, (socket) => (timeout = socket.timeout))).toBe('ok');
    expect(server.connections()).toBe(1);
    expect(timeout).toBe(0);
  });
});
