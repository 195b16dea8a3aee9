/**
 * The PostgreSQL and NATS the tests use, found or started as `npm start` does: DATABASE_URL and
 * NATS_URL when set; else the machine's servers when they answer (127.0.0.1:5432 and :4222, or where
 * TEST_POSTGRES_PROBE / TEST_NATS_PROBE say to look, as `host:port`); else an embedded PostgreSQL and
 * a local nats-server (installed with apt-get when missing and run as root, as the launcher does),
 * with their data in a folder of this run, removed when it ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findExecutable } from '../../src/launcher/executables.ts';
import type { LauncherLog } from '../../src/launcher/log.ts';
import { startNats } from '../../src/launcher/nats.ts';
import { startEmbeddedPostgres } from '../../src/launcher/postgres.ts';

export interface TestServers {
  /** Set in process.env for the test workers: DATABASE_URL, NATS_URL and NATS_SERVER_BIN. */
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
  } catch (err) {
    await stop();
    throw err;
  }
  // Tests that stop and restart a broker run a nats-server of their own: the one found or installed here.
  const natsServer = env.NATS_SERVER_BIN ?? findExecutable('nats-server');
  if (natsServer) found.NATS_SERVER_BIN = natsServer;
  return { env: found, stop };
}
