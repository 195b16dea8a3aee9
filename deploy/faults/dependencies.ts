/**
 * The plain layout's own PostgreSQL and NATS, on free ports, which the run stops and starts again on
 * the same ports and data (never the machine's own servers: other tests use them).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { findExecutable } from '../src/launcher/executables.ts';
import type { LauncherLog } from '../src/launcher/log.ts';
import { ephemeralPort, waitForPort } from '../src/launcher/ports.ts';
import { startEmbeddedPostgres, type PostgresHandle } from '../src/launcher/postgres.ts';
import { ManagedProcess } from '../src/launcher/processes.ts';

/** A server the run can stop and start again. */
export interface Restartable {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A nats-server with JetStream on a port of its own; start() after stop() comes back on the same port and store. */
export async function ownNats(dir: string, log: LauncherLog): Promise<Restartable> {
  const bin = findExecutable('nats-server');
  if (!bin) throw new Error('nats-server is not installed (apt-get install nats-server)');
  const port = await ephemeralPort('127.0.0.1');
  const storeDir = join(dir, 'jetstream');
  mkdirSync(storeDir, { recursive: true });
  let server: ManagedProcess | undefined;
  return {
    url: `nats://127.0.0.1:${port}`,
    async start() {
      // A new process each time: a ManagedProcess that was stopped stays stopped.
      server = new ManagedProcess(
        { name: 'nats', command: bin, args: ['-js', '-sd', storeDir, '-a', '127.0.0.1', '-p', String(port)] },
        log,
      );
      server.start();
      await waitForPort(port, 15_000);
    },
    stop: async () => server?.stop(5_000),
  };
}

/** An embedded PostgreSQL on a port of its own; start() after stop() comes back on the same port and data. */
export async function ownPostgres(dir: string, log: LauncherLog): Promise<Restartable> {
  const port = await ephemeralPort('127.0.0.1');
  let handle: PostgresHandle | undefined;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      handle = await startEmbeddedPostgres(dir, log, port);
      if (!handle.serverUrl.includes(`:${port}/`)) {
        await handle.stop();
        throw new Error(`PostgreSQL came back on another port than ${port}`);
      }
    },
    stop: async () => handle?.stop(),
  };
}
