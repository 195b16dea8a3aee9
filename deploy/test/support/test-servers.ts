/**
 * The PostgreSQL and NATS the tests use, found or started as `npm start` does: DATABASE_URL and
 * NATS_URL when set; else the machine's servers when they answer (127.0.0.1:5432 and :4222, or where
 * TEST_POSTGRES_PROBE / TEST_NATS_PROBE say to look, as `host:port`); else an embedded PostgreSQL and
 * a local nats-server (installed with apt-get when missing and run as root, as the launcher does),
 * with their data in a folder of this run, removed when it ends. Redis, for the test of the rate
 * limit shared by gateway replicas, likewise: TEST_REDIS_URL (not REDIS_URL, which the gateways the
 * tests start would read), else :6379 (TEST_REDIS_PROBE), else a redis-server of the run's own,
 * keeping nothing on disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDebianExecutable, findExecutable } from '../../src/launcher/executables.ts';
import type { LauncherLog } from '../../src/launcher/log.ts';
import { startNats } from '../../src/launcher/nats.ts';
import { findFreePort, waitForPort } from '../../src/launcher/ports.ts';
import { startEmbeddedPostgres } from '../../src/launcher/postgres.ts';
import { ManagedProcess } from '../../src/launcher/processes.ts';

export interface TestServers {
  /** Set in process.env for the test workers: DATABASE_URL, NATS_URL, TEST_REDIS_URL and NATS_SERVER_BIN. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Says what it does on stderr, one line each; the servers' own lines are kept quiet. */
const log: LauncherLog = {
  info: (m) => process.stderr.write(`[test servers] ${m}\n`),
  warn: (m) => process.stderr.write(`[test servers] warning: ${m}\n`),
  error: (m) => process.stderr.write(`[test servers] error: ${m}\n`),
  line: () => undefined,
};

function address(setting: string | undefined, port: number): { host: string; port: number } {
  if (!setting) return { host: '127.0.0.1', port };
  const at = setting.lastIndexOf(':');
  return { host: setting.slice(0, at) || '127.0.0.1', port: Number(setting.slice(at + 1)) };
}

function answers({ host, port }: { host: string; port: number }): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1_000 }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** A redis-server on a free port, nothing kept on disk. */
async function startRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
  const bin = await ensureDebianExecutable('redis-server', 'redis-server', log, 'or set TEST_REDIS_URL');
  const port = await findFreePort(6379);
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const server = new ManagedProcess({ name: 'redis', command: bin, args }, log);
  server.start();
  try {
    await waitForPort(port, 15_000);
  } catch (err) {
    await server.stop(2_000);
    throw new Error(`redis-server did not start on port ${port}: ${(err as Error).message}`);
  }
  log.info(`started redis-server on 127.0.0.1:${port}`);
  return { url: `redis://127.0.0.1:${port}`, stop: () => server.stop(5_000) };
}

export async function startTestServers(env = process.env): Promise<TestServers> {
  const stops: Array<() => Promise<void>> = [];
  const found: Record<string, string> = {};
  let dir: string | undefined;
  const ownDir = () => (dir ??= mkdtempSync(join(tmpdir(), 'pp-test-servers-')));
  const stop = async () => {
    for (const done of stops.reverse()) await done();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (!env.DATABASE_URL) {
      const pg = address(env.TEST_POSTGRES_PROBE, 5432);
      if (await answers(pg)) found.DATABASE_URL = `postgres://postgres@${pg.host}:${pg.port}/postgres`;
      else {
        const server = await startEmbeddedPostgres(join(ownDir(), 'postgres'), log);
        stops.push(server.stop);
        found.DATABASE_URL = server.serverUrl;
      }
    }
    if (!env.NATS_URL) {
      const nats = address(env.TEST_NATS_PROBE, 4222);
      if (await answers(nats)) found.NATS_URL = `nats://${nats.host}:${nats.port}`;
      else {
        const server = await startNats({}, join(ownDir(), 'nats'), log, { open: true });
        stops.push(() => Promise.all(server.servers.map((s) => s.process.stop(5_000))).then(() => undefined));
        found.NATS_URL = server.url;
      }
    }
    if (!env.TEST_REDIS_URL) {
      const redis = address(env.TEST_REDIS_PROBE, 6379);
      if (await answers(redis)) found.TEST_REDIS_URL = `redis://${redis.host}:${redis.port}`;
      else {
        const server = await startRedis();
        stops.push(server.stop);
        found.TEST_REDIS_URL = server.url;
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  // Tests that stop and restart a broker run a nats-server of their own: the one found or installed here.
  const natsServer = env.NATS_SERVER_BIN ?? findExecutable('nats-server');
  if (natsServer) found.NATS_SERVER_BIN = natsServer;
  return { env: found, stop };
}
