import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { dataDirLock } from './lock.ts';
import type { LauncherLog } from './log.ts';
import type { Front } from './front.ts';
import { startNats, type NatsHandle } from './nats.ts';
import { chooseReplicaPorts, choosePorts, requestedPort } from './ports.ts';
import { startPostgres, type PostgresHandle } from './postgres.ts';
import { waitUntilReady } from './readiness.ts';
import {
  natsServerControl,
  replicaUrls,
  startFronts,
  startReplicas,
  type NatsServerControl,
  type UnitProcess,
  type UnitReplica,
} from './replicas.ts';
import { MAX_STREAM_REPLICAS, scaleWarnings } from './scale.ts';
import { loadSecrets } from './secrets.ts';
import { stopStaleUnits } from './stale.ts';
import {
  reachableHost,
  repoRoot,
  requestedHost,
  UNIT_HOST,
  units,
  type LaunchContext,
  type Unit,
} from './units.ts';

export type { NatsServerControl, UnitProcess } from './replicas.ts';

export interface SystemOptions {
  env: Record<string, string | undefined>;
  /** Where the launcher keeps PostgreSQL and NATS data and the generated secrets. */
  dataDir: string;
  log: LauncherLog;
  readyTimeoutMs: number;
  /** How long a unit may take to stop after SIGTERM before it is killed. */
  stopGraceMs?: number;
  /** Defaults to every unit; tests may run fewer. */
  units?: readonly Unit[];
  /** Processes of every unit (default 1). Above 1, each unit is reached through a round-robin front. */
  replicas?: number;
  /** NATS servers the launcher runs as one JetStream cluster (default 1; above 1 NATS_URL must be unset). */
  natsCluster?: number;
}

export interface System {
  /** Starts everything and resolves with the gateway's URL (its front's, with replicas) once /readyz is 200. */
  start(): Promise<string>;
  /** Stops the gateway, then the services, then NATS, then PostgreSQL; safe to call at any time and more than once. */
  stop(): Promise<void>;
  /** Synchronous last resort (the launcher is exiting): SIGKILL every child. */
  killNow(): void;
  /** Every replica of every unit as it runs now (a replica being restarted has no pid). */
  processes(): UnitProcess[];
  /** The nats-servers the launcher runs (none when NATS_URL names the server). */
  natsServers(): NatsServerControl[];
  /** Once started: the gateway's address (with replicas, the front's, which spreads over them). */
  readonly frontUrl: string | undefined;
  /** Once started: the units' NATS_URL (every server, comma-separated). */
  readonly natsUrl: string | undefined;
  /** Once started: the PostgreSQL server the units' databases are on. */
  readonly databaseServerUrl: string | undefined;
  /** With replicas: how many connections each front handed to each replica port, by unit name. */
  frontConnections(): Record<string, Record<number, number>>;
}

export function createSystem(options: SystemOptions): System {
  const { env, dataDir, log } = options;
  const list = options.units ?? units;
  const replicas = options.replicas ?? 1;
  const natsCluster = options.natsCluster ?? 1;
  const running: UnitReplica[] = [];
  let fronts: Front[] = [];
  let postgres: PostgresHandle | undefined;
  let nats: NatsHandle | undefined;
  let frontUrl: string | undefined;
  let stopping = false;
  // The units' pids, so that a launch after a hard kill of this one can stop what it left behind.
  const pidFile = join(dataDir, 'units.pid');
  const lock = dataDirLock(dataDir);
  const recordPids = () => writeFileSync(pidFile, running.map((r) => r.proc.pid ?? '').join('\n'));

  /**
   * From the front door inwards: the gateway drains first, so that what it accepted completes against
   * services still running (stopped together, a request could reach a service that had just closed: a
   * 503); then the services; then the fronts, NATS and PostgreSQL, which the services use until their last step.
   */
  const stopAll = async () => {
    const grace = options.stopGraceMs ?? 12_000;
    const isGateway = (r: UnitReplica) => r.unit.name === 'gateway';
    await Promise.all(running.filter(isGateway).map((r) => r.proc.stop(grace)));
    await Promise.all(running.filter((r) => !isGateway(r)).map((r) => r.proc.stop(grace)));
    await Promise.all(fronts.map((f) => f.close()));
    await Promise.all((nats?.servers ?? []).map((s) => s.process.stop(5_000)));
    await postgres?.stop();
  };
  const checkpoint = async () => {
    if (!stopping) return;
    await stopAll();
    throw new Error('stopped while starting');
  };

  return {
    async start() {
      // A bad PORT or HOST stops the launch before anything starts.
      const gatewayPort = requestedPort(env.PORT);
      const gatewayHost = reachableHost(requestedHost(env.HOST));
      for (const unit of list) {
        if (!existsSync(resolve(repoRoot, unit.entry))) throw new Error(`${unit.entry} is missing`);
      }
      mkdirSync(dataDir, { recursive: true });
      lock.claim();
      await stopStaleUnits(pidFile, repoRoot, (pid) =>
        log.warn(`stopping unit ${pid} left running by an earlier launch`),
      );
      for (const warning of scaleWarnings({ replicas, natsCluster }, env)) log.warn(warning);
      const { secrets, generated } = loadSecrets(join(dataDir, 'secrets.env'), env);
      if (generated.length > 0)
        log.info(`generated ${generated.join(', ')} into ${join(dataDir, 'secrets.env')}`);
      const databases = list.flatMap((u) => (u.database ? [u.database] : []));
      const [pg, broker] = await Promise.allSettled([
        startPostgres(env, join(dataDir, 'postgres'), databases, log),
        startNats(env, join(dataDir, 'nats'), log, { clusterSize: natsCluster, passwords: secrets }),
      ]);
      if (pg.status === 'fulfilled') postgres = pg.value;
      if (broker.status === 'fulfilled') nats = broker.value;
      if (pg.status === 'rejected' || broker.status === 'rejected') {
        await stopAll();
        throw pg.status === 'rejected' ? pg.reason : (broker as PromiseRejectedResult).reason;
      }
      await checkpoint();
      const ports = await choosePorts(gatewayPort, list);
      const ctx: LaunchContext = {
        env,
        databaseServerUrl: postgres!.serverUrl,
        natsUrl: nats!.url,
        natsUsers: nats!.users,
        secrets,
        ports,
        replicaPorts: replicas > 1 ? await chooseReplicaPorts(list, replicas, ports) : undefined,
        eventsReplicas: natsCluster > 1 ? Math.min(natsCluster, MAX_STREAM_REPLICAS) : undefined,
      };
      try {
        fronts = await startFronts(list, ctx, log);
      } catch (err) {
        await stopAll();
        throw err;
      }
      running.push(...startReplicas(list, replicas, ctx, log, recordPids));
      recordPids(); // each spawn wrote the file before the list it writes was complete
      const urlOf = (name: string) =>
        `http://${name === 'gateway' ? gatewayHost : UNIT_HOST}:${ctx.ports.get(name)}`;
      const unitUrls = Object.fromEntries(list.map((u) => [u.name, urlOf(u.name)]));
      const front = list.some((u) => u.name === 'gateway') ? 'gateway' : list[0]!.name;
      // A unit that refused its settings will not start with them however long we wait: stop at once, with why.
      const refused = () => running.find((r) => r.proc.gaveUp)?.proc;
      try {
        const aborted = () => stopping || !!refused();
        const each = replicas > 1 ? replicaUrls(running) : {};
        await waitUntilReady(urlOf(front), unitUrls, options.readyTimeoutMs, aborted, each);
      } catch (err) {
        await stopAll();
        const unit = refused();
        if (!unit) throw err;
        throw new Error(
          `${unit.spec.name} does not start with these settings:\n  ${unit.gaveUp!.join('\n  ')}`,
        );
      }
      await checkpoint();
      frontUrl = urlOf(front);
      return frontUrl;
    },
    async stop() {
      stopping = true;
      await stopAll();
      lock.release();
    },
    processes: () =>
      running.map(({ unit, replica, url, proc }) => ({
        name: unit.name,
        replica,
        url,
        pid: proc.pid,
        kill: () => proc.kill({ restart: true }),
      })),
    natsServers: () => (nats?.servers ?? []).map(natsServerControl),
    get frontUrl() {
      return frontUrl;
    },
    get natsUrl() {
      return nats?.url;
    },
    get databaseServerUrl() {
      return postgres?.serverUrl;
    },
    frontConnections: () => Object.fromEntries(fronts.map((f) => [f.name, Object.fromEntries(f.handed)])),
    killNow() {
      for (const r of running) r.proc.killNow();
      for (const s of nats?.servers ?? []) s.process.killNow();
      postgres?.killNow();
    },
  };
}
