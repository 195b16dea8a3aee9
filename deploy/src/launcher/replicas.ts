import { resolve } from 'node:path';
import { EXIT_BAD_CONFIG } from '@pp/config';
import { startFront, type Front } from './front.ts';
import type { LauncherLog } from './log.ts';
import { waitForMetaLeader, type NatsServer } from './nats-cluster.ts';
import { waitForPort } from './ports.ts';
import { ManagedProcess } from './processes.ts';
import {
  nodeBinary,
  repoRoot,
  requestedHost,
  UNIT_HOST,
  unitEnvironment,
  type LaunchContext,
  type Unit,
} from './units.ts';

/** One process of a unit, as `processes()` lists it. */
export interface UnitProcess {
  /** The unit, e.g. `sessions` or `gateway`. */
  name: string;
  /** 1, 2, ...: which of the unit's replicas (its log prefix is `sessions-2` when there are several). */
  replica: number;
  /** Its own address (not the front's): e.g. `${url}/readyz` says whether this replica is ready. */
  url: string;
  /** Undefined while it is being restarted. */
  pid: number | undefined;
  /** SIGKILL to it (and whatever it started); the launcher restarts it with backoff, as after a crash. */
  kill(): Promise<void>;
}

/** One nats-server the launcher runs, as `natsServers()` lists it. */
export interface NatsServerControl {
  /** `nats` for a single server; `nats-1`, `nats-2`, ... in a cluster. */
  name: string;
  /** Its own client URL (the units have every server's URL). */
  url: string;
  /** Its monitoring address in a cluster, e.g. `/jsz?streams=true` names each stream's leader. */
  monitorUrl: string | undefined;
  pid: number | undefined;
  running: boolean;
  /** SIGKILL, as a crash would end it; it stays down until start(). */
  kill(): Promise<void>;
  /** SIGTERM and wait (5 s, then SIGKILL); it stays down until start(). */
  stop(): Promise<void>;
  /** Starts it again on its own ports and store; resolves once it is back in the cluster. */
  start(): Promise<void>;
}

/** One running replica of a unit. */
export interface UnitReplica {
  unit: Unit;
  /** 1-based. */
  replica: number;
  /** Its own address. */
  url: string;
  proc: ManagedProcess;
}

/** Each replica's own address by its process name (`sessions-2`), for a readiness check of every one. */
export const replicaUrls = (replicas: readonly UnitReplica[]): Record<string, string> =>
  Object.fromEntries(replicas.map((r) => [r.proc.spec.name, r.url]));

/** Every replica of every unit, started; each its own port (from `ctx`) and its own log prefix. */
export function startReplicas(
  list: readonly Unit[],
  count: number,
  ctx: LaunchContext,
  log: LauncherLog,
  onSpawn: () => void,
): UnitReplica[] {
  const started: UnitReplica[] = [];
  for (const unit of list) {
    for (let i = 0; i < count; i++) {
      const spec = {
        name: count > 1 ? `${unit.name}-${i + 1}` : unit.name,
        command: nodeBinary(),
        args: [...(unit.nodeOptions ?? []), resolve(repoRoot, unit.entry)],
        cwd: repoRoot,
        env: unitEnvironment(unit, ctx, i),
        finalExitCode: EXIT_BAD_CONFIG,
      };
      const proc = new ManagedProcess(spec, log, onSpawn);
      const url = `http://127.0.0.1:${spec.env.PORT}`;
      started.push({ unit, replica: i + 1, url, proc });
      proc.start();
    }
  }
  return started;
}

/** With several replicas, a front on each unit's address spreading connections over its replicas. */
export async function startFronts(
  list: readonly Unit[],
  ctx: LaunchContext,
  log: LauncherLog,
): Promise<Front[]> {
  if (!ctx.replicaPorts) return [];
  const fronts: Front[] = [];
  try {
    for (const unit of list)
      fronts.push(
        await startFront(
          unit.name,
          ctx.ports.get(unit.name)!,
          ctx.replicaPorts.get(unit.name)!,
          log,
          // The gateway's front is where clients come in: on HOST (loopback unless set); the others on loopback.
          unit.name === 'gateway' ? requestedHost(ctx.env.HOST) : UNIT_HOST,
        ),
      );
  } catch (err) {
    await Promise.all(fronts.map((f) => f.close()));
    throw new Error(`could not open the fronts over the replicas: ${(err as Error).message}`);
  }
  const spread = list.map((u) => `${u.name} ${ctx.ports.get(u.name)}`).join(', ');
  log.info(`${ctx.replicaPorts.size} fronts spread connections over the replicas: ${spread}`);
  return fronts;
}

/** What a fault run may do to one nats-server of the launcher. */
export function natsServerControl(server: NatsServer): NatsServerControl {
  const { process: proc } = server;
  return {
    name: server.name,
    url: server.url,
    monitorUrl: server.monitorUrl,
    pid: proc.pid,
    running: proc.running,
    kill: () => proc.kill({ restart: false }),
    stop: () => proc.stop(5_000),
    async start() {
      if (proc.running) return;
      proc.start();
      await waitForPort(Number(new URL(server.url).port), 15_000);
      if (server.monitorUrl) await waitForMetaLeader(server.monitorUrl, 30_000);
    },
  };
}
