import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDebianExecutable } from './executables.ts';
import type { LauncherLog } from './log.ts';
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
}

/** host and port of the first server of a NATS_URL such as `nats://a:4222,nats://b:4222`. */
export function firstNatsAddress(url: string): { host: string; port: number } {
  const first = new URL(url.split(',')[0]!.trim());
  return { host: first.hostname.replace(/^\[|\]$/g, ''), port: Number(first.port || DEFAULT_NATS_PORT) };
}

/**
 * The NATS of NATS_URL when it answers; else a local nats-server with JetStream, data under `dir`; or,
 * with `clusterSize` above 1, a cluster of that many servers, data under `clusterDir`.
 */
export async function startNats(
  env: Record<string, string | undefined>,
  dir: string,
  log: LauncherLog,
  { clusterSize = 1, clusterDir = `${dir}-cluster` }: { clusterSize?: number; clusterDir?: string } = {},
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
  if (clusterSize > 1) {
    const servers = await startNatsCluster(bin, clusterSize, clusterDir, log);
    return { url: servers.map((s) => s.url).join(','), servers };
  }
  const storeDir = join(dir, 'jetstream');
  const pidFile = join(dir, 'nats-server.pid');
  mkdirSync(storeDir, { recursive: true });
  await stopStaleServer(pidFile, storeDir, 'SIGTERM', (pid) =>
    log.warn(`stopping nats-server ${pid} left running by an earlier launch`),
  );
  const port = await findFreePort(DEFAULT_NATS_PORT);
  const server = new ManagedProcess(
    {
      name: 'nats',
      command: bin,
      args: ['-js', '-sd', storeDir, '-a', '127.0.0.1', '-p', String(port), '-P', pidFile],
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
  return { url, servers: [{ name: 'nats', url, process: server }] };
}
