import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EXIT_BAD_CONFIG } from '@pp/config';
import { dataDirLock } from './lock.ts';
import type { LauncherLog } from './log.ts';
import { startNats, type NatsHandle } from './nats.ts';
import { choosePorts, requestedPort } from './ports.ts';
import { startPostgres, type PostgresHandle } from './postgres.ts';
import { ManagedProcess } from './processes.ts';
import { waitUntilReady } from './readiness.ts';
import { loadSecrets } from './secrets.ts';
import { stopStaleUnits } from './stale.ts';
import {
  nodeBinary,
  reachableHost,
  repoRoot,
  requestedHost,
  UNIT_HOST,
  unitEnvironment,
  units,
  type Unit,
} from './units.ts';

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
}

export interface System {
  /** Starts everything and resolves with the gateway's URL once its /readyz is 200. */
  start(): Promise<string>;
  /** Stops the gateway, then the services, then NATS, then PostgreSQL; safe to call at any time and more than once. */
  stop(): Promise<void>;
  /** Synchronous last resort (the launcher is exiting): SIGKILL every child. */
  killNow(): void;
  /** The units' processes as they run now (a unit being restarted has no pid). */
  processes(): Array<{ name: string; pid: number | undefined }>;
}

export function createSystem(options: SystemOptions): System {
  const { env, dataDir, log } = options;
  const list = options.units ?? units;
  const procs: ManagedProcess[] = [];
  let postgres: PostgresHandle | undefined;
  let nats: NatsHandle | undefined;
  let stopping = false;
  // The units' pids, so that a launch after a hard kill of this one can stop what it left behind.
  const pidFile = join(dataDir, 'units.pid');
  const lock = dataDirLock(dataDir);
  const recordPids = () => writeFileSync(pidFile, procs.map((p) => p.pid ?? '').join('\n'));

  /**
   * From the front door inwards: the gateway drains first, so that what it accepted completes against
   * services still running (stopped together, a request could reach a service that had just closed: a
   * 503); then the services; then NATS and PostgreSQL, which the services use until their last step.
   */
  const stopAll = async () => {
    const grace = options.stopGraceMs ?? 12_000;
    const front = procs.filter((p) => p.spec.name === 'gateway');
    await Promise.all(front.map((p) => p.stop(grace)));
    await Promise.all(procs.filter((p) => !front.includes(p)).map((p) => p.stop(grace)));
    await nats?.process?.stop(5_000);
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
      requestedHost(env.HOST);
      for (const unit of list) {
        if (!existsSync(resolve(repoRoot, unit.entry))) throw new Error(`${unit.entry} is missing`);
      }
      mkdirSync(dataDir, { recursive: true });
      lock.claim();
      await stopStaleUnits(pidFile, repoRoot, (pid) =>
        log.warn(`stopping unit ${pid} left running by an earlier launch`),
      );
      const { secrets, generated } = loadSecrets(join(dataDir, 'secrets.env'), env);
      if (generated.length > 0)
        log.info(`generated ${generated.join(', ')} into ${join(dataDir, 'secrets.env')}`);
      const databases = list.flatMap((u) => (u.database ? [u.database] : []));
      const [pg, broker] = await Promise.allSettled([
        startPostgres(env, join(dataDir, 'postgres'), databases, log),
        startNats(env, join(dataDir, 'nats'), log, secrets),
      ]);
      if (pg.status === 'fulfilled') postgres = pg.value;
      if (broker.status === 'fulfilled') nats = broker.value;
      if (pg.status === 'rejected' || broker.status === 'rejected') {
        await stopAll();
        throw pg.status === 'rejected' ? pg.reason : (broker as PromiseRejectedResult).reason;
      }
      await checkpoint();
      const ctx = {
        env,
        databaseServerUrl: postgres!.serverUrl,
        natsUrl: nats!.url,
        natsUsers: nats!.users,
        secrets,
        ports: await choosePorts(gatewayPort, list),
      };
      for (const unit of list) {
        const proc = new ManagedProcess(
          {
            name: unit.name,
            command: nodeBinary(),
            args: [resolve(repoRoot, unit.entry)],
            cwd: repoRoot,
            env: unitEnvironment(unit, ctx),
            finalExitCode: EXIT_BAD_CONFIG,
          },
          log,
          recordPids,
        );
        procs.push(proc);
        proc.start();
      }
      const gatewayHost = reachableHost(requestedHost(env.HOST));
      const urlOf = (name: string) =>
        `http://${name === 'gateway' ? gatewayHost : UNIT_HOST}:${ctx.ports.get(name)}`;
      const unitUrls = Object.fromEntries(list.map((u) => [u.name, urlOf(u.name)]));
      const front = list.some((u) => u.name === 'gateway') ? 'gateway' : list[0]!.name;
      // A unit that refused its settings will not start with them however long we wait: stop at once, with why.
      const refused = () => procs.find((p) => p.gaveUp);
      try {
        await waitUntilReady(urlOf(front), unitUrls, options.readyTimeoutMs, () => stopping || !!refused());
      } catch (err) {
        await stopAll();
        const unit = refused();
        if (!unit) throw err;
        throw new Error(
          `${unit.spec.name} does not start with these settings:\n  ${unit.gaveUp!.join('\n  ')}`,
        );
      }
      await checkpoint();
      return urlOf(front);
    },
    async stop() {
      stopping = true;
      await stopAll();
      lock.release();
    },
    processes: () => procs.map((p) => ({ name: p.spec.name, pid: p.pid })),
    killNow() {
      for (const p of procs) p.killNow();
      nats?.process?.killNow();
      postgres?.killNow();
    },
  };
}
