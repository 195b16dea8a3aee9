import express from 'express';
import { createServer, type AddressInfo } from 'node:net';
import { createLogger } from '@pp/logger';
import {
  createServiceApp,
  listen,
  send,
  requireService,
  runWithContext,
  ServiceUnavailableError,
  type RunningServer,
} from '@pp/http';
import { createServiceClient } from './index.ts';
import { createResilientClient } from './resilient-client.ts';

const KEY = 'k'.repeat(40);
const logger = createLogger({ name: 'client-test', level: 'silent' });

describe('service client', () => {
  let server: RunningServer;
  let flaky = 0;
  const seen: string[] = [];
  beforeAll(async () => {
    const app = createServiceApp({
      logger,
      unit: 'sessions',
      identityKey: KEY,
      readiness: {},
      routes: (a) => {
        a.get('/internal/who', requireService, (req, res) => {
          seen.push(req.get('x-request-id') ?? '');
          send(res, 200, { who: req.identity });
        });
        a.get('/internal/who-user', (req, res) => send(res, 200, { who: req.identity }));
        a.get('/internal/header', requireService, (req, res) => {
          send(res, 200, { header: req.get('x-pp-identity') });
        });
        a.get('/flaky', (_req, res) => {
          flaky++;
          if (flaky < 3) res.status(503).json({ success: false });
          else send(res, 200, { ok: true });
        });
        a.post('/conflict', (_req, res) => {
          res.status(409).json({
            success: false,
            message: 'Story already revealed',
            error: { code: 'story_already_revealed' },
          });
        });
      },
    });
    server = await listen(app, 0, '127.0.0.1');
  });
  afterAll(() => server.close());
  const sessionsClient = (signingKey = KEY) =>
    createServiceClient({ target: 'sessions', baseURL: server.url, caller: 'stories', signingKey, logger });

  it('signs the calling service identity and propagates the request id', async () => {
    const client = sessionsClient();
    const data = await runWithContext({ requestId: 'req-42' }, () =>
      client.callOk<{ who: { sub: string; kind: string } }>({ url: '/internal/who' }),
    );
    expect(data.who).toMatchObject({ sub: 'stories', kind: 'service', iss: 'stories', aud: 'sessions' });
    expect(seen).toContain('req-42');
  });

  it('signs its own identity once a while, not on every call', async () => {
    const client = sessionsClient();
    const headers: string[] = [];
    for (let i = 0; i < 3; i++) {
      const data = await client.callOk<{ header: string }>({ url: '/internal/header' });
      headers.push(data.header);
    }
    expect(new Set(headers).size).toBe(1);
  });

  it('signs for its target alone: a client of another unit pointed here is refused', async () => {
    const misdirected = createServiceClient({
      target: 'stories',
      baseURL: server.url,
      caller: 'ai',
      signingKey: KEY,
      logger,
    });
    const res = await misdirected.call<{ error: { code: string } }>({ url: '/internal/who' });
    expect([res.status, res.data.error.code]).toEqual([401, 'invalid_identity']);
    const acting = await sessionsClient().callOk<{ who: Record<string, unknown> }>({
      url: '/internal/who-user',
      actAs: { sub: 'u1', kind: 'user', token_kind: 'api' },
    });
    expect(acting.who).toMatchObject({ sub: 'u1', kind: 'user', iss: 'stories', aud: 'sessions' });
  });

  it('is refused when it signs with the wrong key', async () => {
    const client = sessionsClient('x'.repeat(40));
    expect((await client.call({ url: '/internal/who' })).status).toBe(401);
  });

  it('retries an idempotent call through passing 503s', async () => {
    const client = sessionsClient();
    expect(await client.callOk({ url: '/flaky' })).toMatchObject({ ok: true });
    expect(flaky).toBe(3);
  });

  it('turns the target error envelope into the same AppError', async () => {
    const client = sessionsClient();
    await expect(client.callOk({ url: '/conflict', method: 'POST' })).rejects.toMatchObject({
      status: 409,
      code: 'story_already_revealed',
    });
  });
});

describe('resilient client', () => {
  it('answers ServiceUnavailable when the target is down, and once the breaker opens, without calling it', async () => {
    // A target that accepts connections and drops them at once, counting them.
    let connections = 0;
    const dropping = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    const { port } = dropping.address() as AddressInfo;
    const client = createResilientClient({
      name: 'dead',
      baseURL: `http://127.0.0.1:${port}`,
      logger,
      retries: 0,
      breaker: { volumeThreshold: 2 },
    });
    try {
      for (let i = 0; i < 3; i++) {
        await expect(client.request({ url: '/x' })).rejects.toBeInstanceOf(ServiceUnavailableError);
      }
      expect(client.breaker.opened).toBe(true);
      const tried = connections;
      expect(tried).toBeGreaterThan(0);
      await expect(client.request({ url: '/x' })).rejects.toMatchObject({
        status: 503,
        code: 'dead_unavailable',
      });
      expect(connections).toBe(tried);
    } finally {
      await new Promise((resolve) => dropping.close(resolve));
    }
  });
});

describe('failure logs', () => {
  it('never carry the signed identity header of a failed call', async () => {
    const lines: string[] = [];
    const captured = createLogger({
      name: 'capture',
      level: 'warn',
      destination: { write: (l: string) => lines.push(l) },
    });
    const dead = await listen(express(), 0, '127.0.0.1');
    await dead.close();
    const client = createServiceClient({
      target: 'gone',
      baseURL: dead.url,
      caller: 'stories',
      signingKey: KEY,
      logger: captured,
    });
    const failure = await client.call({ url: '/internal/x' }).catch((err: ServiceUnavailableError) => err);
    expect(failure).toBeInstanceOf(ServiceUnavailableError);
    expect(lines.join('')).toMatch(/outbound call failed/);
    expect(lines.join('')).not.toMatch(/x-pp-identity/i);
    expect(JSON.stringify((failure as ServiceUnavailableError).cause)).not.toMatch(/x-pp-identity/i);
  });
});
