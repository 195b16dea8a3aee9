import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDebianExecutable } from './executables.ts';
import type { LauncherLog } from './log.ts';
import { natsAuthorization, natsPasswordEnvironment } from './nats-auth.ts';
import { findFreePort, waitForPort } from './ports.ts';
import { startNatsCluster, type NatsServer } from './nats-cluster.ts';
import { ManagedProcess } from './processes.ts';
import { stopStaleServer } from './stale.ts';

export const DEFAULT_NATS_PORT = 4222;

export interface NatsHandle {
  /** Every server's URL, comma-separated (clients fail over from one to the next). */
  url: string;
  /** The servers the launcher runs itself (none when NATS_URL names one). */
  servers: NatsServer[];
  /** The servers require each unit's own user (those the launcher runs do). */
  users?: boolean;
}

/** host and port of the first server of a NATS_URL such as `nats://a:4222,nats://b:4222`. */
export function firstNatsAddress(url: string): { host: string; port: number } {
  const first = new URL(url.split(',')[0]!.trim());
  return { host: first.hostname.replace(/^\[|\]$/g, ''), port: Number(first.port || DEFAULT_NATS_PORT) };
}

/**
 * The NATS of NATS_URL when it answers (the units connect with the NATS_USER and NATS_PASSWORD of the
 * environment, if any); else a local nats-server with JetStream, data under `dir`; or, with
 * `clusterSize` above 1, a cluster of that many servers, data under `clusterDir`. The servers the
 * launcher runs require each unit's own user (`passwords`: <UNIT>_NATS_PASSWORD values, nats-auth.ts),
 * but with `open` (a single server for the tests, whose clients connect without users).
 */
export async function startNats(
  env: Record<string, string | undefined>,
  dir: string,
  log: LauncherLog,
  {
    clusterSize = 1,
    clusterDir = `${dir}-cluster`,
    passwords = {},
    open = false,
  }: { clusterSize?: number; clusterDir?: string; passwords?: Record<string, string>; open?: boolean } = {},
): Promise<NatsHandle> {
  if (env.NATS_URL && clusterSize > 1)
    throw new Error(
      '--nats-cluster runs NATS servers of its own: unset NATS_URL, or leave --nats-cluster out',
    );
  if (env.NATS_URL) {
    const { host, port } = firstNatsAddress(env.NATS_URL);
    await waitForPort(port, 5_000, host).catch(() => {
      throw new Error(`NATS at NATS_URL (${host}:${port}) does not answer; start it or unset NATS_URL`);
    });
    log.info(`using NATS at ${env.NATS_URL}`);
    return { url: env.NATS_URL, servers: [] };
  }
  const bin = await ensureDebianExecutable(
    'nats-server',
    'nats-server',
    log,
    'macOS: brew install nats-server; or set NATS_URL to a running NATS with JetStream',
  );
  // The users and what each may do; the servers read the passwords from their environment.
  const auth = open
    ? { config: '', env: { PATH: process.env.PATH ?? '' } }
    : {
        config: natsAuthorization(env.EVENTS_PREFIX || 'pp'),
        env: { PATH: process.env.PATH ?? '', ...natsPasswordEnvironment(passwords) },
      };
  if (clusterSize > 1) {
    const servers = await startNatsCluster(bin, clusterSize, clusterDir, log, auth);
    return { url: servers.map((s) => s.url).join(','), servers, users: true };
  }
  const storeDir = join(dir, 'jetstream');
  const pidFile = join(dir, 'nats-server.pid');
  mkdirSync(storeDir, { recursive: true });
  await stopStaleServer(pidFile, storeDir, 'SIGTERM', (pid) =>
    log.warn(`stopping nats-server ${pid} left running by an earlier launch`),
  );
  const port = await findFreePort(DEFAULT_NATS_PORT);
  const config = join(dir, 'nats.conf');
  writeFileSync(config, auth.config, { mode: 0o600 });
  const server = new ManagedProcess(
    {
      name: 'nats',
      command: bin,
      args: ['-c', config, '-js', '-sd', storeDir, '-a', '127.0.0.1', '-p', String(port), '-P', pidFile],
      // Nothing else of the launcher's environment: the configuration reads the units' passwords here.
      env: auth.env,
    },
    log,
  );
  server.start();
  try {
    await waitForPort(port, 15_000);
  } catch (err) {
    await server.stop(2_000);
    throw new Error(`nats-server did not start on port ${port}: ${(err as Error).message}`);
  }
  log.info(`started nats-server with JetStream on 127.0.0.1:${port} (data in ${storeDir})`);
  const url = `nats://127.0.0.1:${port}`;
  return { url, servers: [{ name: 'nats', url, process: server }], users: !open };
}
