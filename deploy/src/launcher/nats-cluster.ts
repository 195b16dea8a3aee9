import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import type { LauncherLog } from './log.ts';
import { findFreePort, waitForPort } from './ports.ts';
import { ManagedProcess } from './processes.ts';
import { stopStaleServer } from './stale.ts';

/** One nats-server the launcher runs: its client URL and its process. */
export interface NatsServer {
  /** `nats-1`, `nats-2`, ... (`nats` when the launcher runs a single server). */
  name: string;
  url: string;
  /** Its monitoring address, e.g. `http://127.0.0.1:8222` (`/jsz` says who leads the cluster). */
  monitorUrl?: string;
  process: ManagedProcess;
}

export interface ServerConfig {
  name: string;
  port: number;
  httpPort: number;
  clusterPort: number;
  clusterName: string;
  /** Every server's cluster address, its own included (a server ignores a route to itself). */
  routes: string[];
  storeDir: string;
  /** nats-server 2.10 and later: sync every write to disk before acknowledging it. */
  syncAlways: boolean;
}

/** The config file of one server of the cluster: JetStream with its own store, routes to the others. */
export function natsServerConfig(c: ServerConfig): string {
  return [
    `server_name: ${c.name}`,
    `listen: 127.0.0.1:${c.port}`,
    `http: 127.0.0.1:${c.httpPort}`,
    'jetstream {',
    `  store_dir: "${c.storeDir}"`,
    ...(c.syncAlways ? ['  sync_interval: always'] : []),
    '}',
    'cluster {',
    `  name: ${c.clusterName}`,
    `  listen: 127.0.0.1:${c.clusterPort}`,
    `  routes: [${c.routes.map((r) => `"${r}"`).join(', ')}]`,
    '}',
    '',
  ].join('\n');
}

/** True for nats-server 2.10 and later, which know `sync_interval` (Debian's 2.9 refuses the config). */
export async function knowsSyncInterval(bin: string): Promise<boolean> {
  const { stdout } = await execa(bin, ['--version'], { reject: false });
  const [major = 0, minor = 0] = (/v(\d+)\.(\d+)/.exec(stdout) ?? []).slice(1).map(Number);
  return major > 2 || (major === 2 && minor >= 10);
}

/** Resolves once the server's /jsz names a leader of the JetStream cluster (it can then take stream changes). */
export async function waitForMetaLeader(monitorUrl: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const leader = await fetch(`${monitorUrl}/jsz`, { signal: AbortSignal.timeout(1_000) })
      .then((r) => r.json() as Promise<{ meta_cluster?: { leader?: string } }>)
      .then((j) => j.meta_cluster?.leader)
      .catch(() => undefined);
    if (leader) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${monitorUrl}: no JetStream cluster leader within ${timeoutMs} ms`);
}

/**
 * `size` nats-servers with JetStream forming one cluster on 127.0.0.1, each with its config and store
 * under `dir/nats-<i>`. Resolves once every server answers and the cluster has elected its leader.
 */
export async function startNatsCluster(
  bin: string,
  size: number,
  dir: string,
  log: LauncherLog,
): Promise<NatsServer[]> {
  const taken = new Set<number>();
  const free = async (preferred: number) => {
    const port = await findFreePort(preferred, taken);
    taken.add(port);
    return port;
  };
  const names = Array.from({ length: size }, (_, i) => `nats-${i + 1}`);
  const plan = [];
  for (const [i, name] of names.entries())
    plan.push({
      name,
      port: await free(i === 0 ? 4222 : 0),
      httpPort: await free(0),
      clusterPort: await free(0),
    });
  const routes = plan.map((p) => `nats://127.0.0.1:${p.clusterPort}`);
  const syncAlways = await knowsSyncInterval(bin);
  const servers: NatsServer[] = [];
  for (const p of plan) {
    const own = join(dir, p.name);
    const storeDir = join(own, 'jetstream');
    const configFile = join(own, 'nats.conf');
    const pidFile = join(own, 'nats-server.pid');
    mkdirSync(storeDir, { recursive: true });
    await stopStaleServer(pidFile, configFile, 'SIGTERM', (pid) =>
      log.warn(`stopping ${p.name} (${pid}) left running by an earlier launch`),
    );
    const config = { ...p, clusterName: 'planning-poker', routes, storeDir, syncAlways };
    writeFileSync(configFile, natsServerConfig(config));
    const spec = { name: p.name, command: bin, args: ['-c', configFile, '-P', pidFile] };
    servers.push({
      name: p.name,
      url: `nats://127.0.0.1:${p.port}`,
      monitorUrl: `http://127.0.0.1:${p.httpPort}`,
      process: new ManagedProcess(spec, log),
    });
  }
  for (const s of servers) s.process.start();
  try {
    await Promise.all(plan.map((p) => waitForPort(p.port, 15_000)));
    await Promise.all(servers.map((s) => waitForMetaLeader(s.monitorUrl!, 30_000)));
  } catch (err) {
    await Promise.all(servers.map((s) => s.process.stop(2_000)));
    throw new Error(`the NATS cluster did not form: ${(err as Error).message}`);
  }
  log.info(`started a NATS cluster of ${size} JetStream servers: ${servers.map((s) => s.url).join(',')}`);
  return servers;
}
