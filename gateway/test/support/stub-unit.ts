import type { Express, Request, Response } from 'express';
import {
  createServiceApp,
  errorEnvelope,
  listen,
  send,
  unitOpenApiRoutes,
  type RunningServer,
  type UnitDocs,
} from '@pp/http';
import { createLogger } from '@pp/logger';

export interface StubUnit {
  name: string;
  url: string;
  port: number;
  /** What the unit received, newest last. */
  seen: Array<{
    method: string;
    path: string;
    identity: unknown;
    headers: Record<string, string | undefined>;
  }>;
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

/**
 * Waits `?delay_ms=`, or until the caller goes (a timer left behind would keep the test process alive
 * after its last test).
 */
async function pause(req: Request, res: Response): Promise<void> {
  const delay = Number(req.query.delay_ms ?? 0);
  if (delay)
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delay);
      res.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
}

/**
 * A unit that is not built yet, with the real service stack (signed identity check, envelope, /readyz):
 * it echoes what it received; `/sessions/{code}/events` is a live stream (a HEAD of it only its headers)
 * and `?delay_ms=` makes it slow. A room whose code starts with ZZ does not exist (404).
 * It describes the paths of `docs` to the gateway, like a real unit.
 */
export async function startStubUnit(name: string, port = 0, docs: UnitDocs = {}): Promise<StubUnit> {
  const seen: StubUnit['seen'] = [];
  const app: Express = createServiceApp({
    logger: createLogger({ name: `stub-${name}`, level: 'silent' }),
    unit: name,
    identityKey: process.env.STUB_IDENTITY_KEY ?? 'internal-signing-key-for-tests-0123456789',
    readiness: {},
    routes: (a) => {
      a.use(unitOpenApiRoutes(name, docs));
      a.use((req, _res, next) => {
        seen.push({
          method: req.method,
          path: req.path,
          identity: req.identity ?? null,
          headers: {
            'x-request-id': req.get('x-request-id'),
            'x-correlation-id': req.get('x-correlation-id'),
            authorization: req.get('authorization'),
            'x-forwarded-for': req.get('x-forwarded-for'),
            traceparent: req.get('traceparent'),
            tracestate: req.get('tracestate'),
          },
        });
        next();
      });
      a.get('/sessions/:code/events', async (req, res) => {
        const headers = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
        // A HEAD gets the headers alone, and ends (as the sessions unit answers it).
        if (req.method === 'HEAD') {
          await pause(req, res);
          if (!res.destroyed) res.writeHead(200, headers).end();
          return;
        }
        res.writeHead(200, headers);
        res.flushHeaders();
        let n = 0;
        const timer = setInterval(() => res.write(`id: ${++n}\nevent: tick\ndata: {"n":${n}}\n\n`), 50);
        req.on('close', () => clearInterval(timer));
      });
      // A room whose code starts with ZZ does not exist.
      a.use(async (req, res, next) => {
        if (!/^\/sessions\/zz/i.test(req.path)) return next();
        await pause(req, res);
        if (!res.destroyed) res.status(404).json(errorEnvelope('session_not_found', 'No such session'));
      });
      a.use(async (req, res) => {
        await pause(req, res);
        if (res.destroyed) return;
        send(res, req.method === 'POST' ? 201 : 200, {
          unit: name,
          method: req.method,
          path: req.path,
          identity: req.identity ?? null,
          body: req.body ?? null,
        });
      });
    },
  });
  let running: RunningServer = await listen(app, port, '127.0.0.1');
  const stub: StubUnit = {
    name,
    url: running.url,
    port: running.port,
    seen,
    async stop() {
      running.server.closeAllConnections();
      await running.close();
    },
    async start() {
      running = await listen(app, stub.port, '127.0.0.1');
    },
  };
  return stub;
}
