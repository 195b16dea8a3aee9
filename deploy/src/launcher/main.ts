/**
 * `npm start`: the whole platform on this machine. PostgreSQL and NATS come from DATABASE_URL / NATS_URL, or
 * are started here; then the gateway and every service run as child processes until Ctrl-C.
 * `npm start -- --replicas N --nats-cluster M`: N processes of every unit behind round-robin fronts, and a
 * cluster of M NATS servers keeping every event on each of them (up to 5).
 */
import { join } from 'node:path';
import { createLauncherLog } from './log.ts';
import { parseScale, type Scale } from './scale.ts';
import { createSystem } from './system.ts';
import { repoRoot, units } from './units.ts';
import { buildWebRoom } from './web-room.ts';

const env = process.env;
let scale: Scale;
try {
  scale = parseScale(process.argv.slice(2), env);
} catch (err) {
  createLauncherLog([]).error((err as Error).message);
  process.exit(2);
}
const replicaNames = (name: string) =>
  scale.replicas > 1 ? Array.from({ length: scale.replicas }, (_, i) => `${name}-${i + 1}`) : [name];
const natsNames =
  scale.natsCluster > 1 ? Array.from({ length: scale.natsCluster }, (_, i) => `nats-${i + 1}`) : ['nats'];
const log = createLauncherLog(['postgres', ...natsNames, ...units.flatMap((u) => replicaNames(u.name))]);
const readyTimeoutMs = Number(env.LAUNCHER_READY_TIMEOUT ?? 90) * 1000;
if (!(readyTimeoutMs > 0)) {
  log.error(`LAUNCHER_READY_TIMEOUT must be a number of seconds, not "${env.LAUNCHER_READY_TIMEOUT}"`);
  process.exit(2);
}
const system = createSystem({
  env,
  dataDir: env.LAUNCHER_DATA_DIR ?? join(repoRoot, '.data'),
  log,
  readyTimeoutMs,
  ...scale,
});

let stopping: Promise<void> | undefined;
let starting: Promise<unknown> = Promise.resolve();

async function shutdown(code: number): Promise<never> {
  stopping ??= (async () => {
    log.info('stopping: the gateway, then the services, then NATS and PostgreSQL');
    await system.stop();
    await starting.catch(() => undefined);
  })();
  await stopping;
  log.info('stopped');
  process.exit(code);
}

/** Within this long of the first, the same signal is a copy (npm forwards the Ctrl-C its child got too), not a second Ctrl-C. */
const REPEAT_MS = 1_000;
let firstSignalAt = 0;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (stopping) {
      if (Date.now() - firstSignalAt < REPEAT_MS) return;
      log.warn(`${signal} again: killing everything now`);
      system.killNow();
      process.exit(130);
    }
    firstSignalAt = Date.now();
    void shutdown(0);
  });
}
// A bug of the launcher itself still stops everything in order. Once stopping, an
// error (e.g. writing to a terminal that is gone) must not start a loop of logging it; the stop goes on.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (err) => {
    if (stopping) return;
    log.error(`${event}: ${(err as Error)?.stack ?? String(err)}`);
    void shutdown(1);
  });
}
/**
 * Whatever ends the launcher, its children do not outlive it: the units and NATS are killed, PostgreSQL
 * is asked for a fast shutdown. Each runs in its own process group, so only the launcher can stop them;
 * a launcher killed with SIGKILL runs nothing, and what it left running is stopped by the next start on
 * the same data folder (from the pid files) before anything else starts.
 */
process.on('exit', () => system.killNow());

const began = Date.now();
// The web room first (only when its sources changed): the gateway finds it in web/dist when it starts.
starting = buildWebRoom(log).then(() => {
  if (stopping) throw new Error('stopped before the start');
  return system.start();
});
try {
  const url = (await starting) as string;
  const seconds = ((Date.now() - began) / 1000).toFixed(1);
  log.info(`ready in ${seconds} s`);
  log.info(
    `Planning poker API: ${url.replace('127.0.0.1', 'localhost')}  (API docs: /docs, health: /healthz, readiness: /readyz)`,
  );
  log.info('press Ctrl-C to stop');
} catch (err) {
  if (!stopping) {
    log.error((err as Error).message);
    await shutdown(1);
  }
}
