/**
 * `npm start`: the whole platform on this machine. PostgreSQL and NATS come from DATABASE_URL / NATS_URL, or
 * are started here; then the gateway and every service run as child processes until Ctrl-C.
 */
import { join } from 'node:path';
import { createLauncherLog } from './log.ts';
import { createSystem } from './system.ts';
import { repoRoot, units } from './units.ts';

const env = process.env;
const log = createLauncherLog(['postgres', 'nats', ...units.map((u) => u.name)]);
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
});

let stopping: Promise<void> | undefined;
let starting: Promise<unknown> = Promise.resolve();

async function shutdown(code: number): Promise<never> {
  stopping ??= (async () => {
    log.info('stopping: services first, then NATS and PostgreSQL');
    await system.stop();
    await starting.catch(() => undefined);
  })();
  await stopping;
  log.info('stopped');
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (stopping) {
      log.warn(`${signal} again: killing everything now`);
      system.killNow();
      process.exit(130);
    }
    void shutdown(0);
  });
}
// Whatever happens to the launcher, its children do not outlive it.
process.on('exit', () => system.killNow());

const began = Date.now();
starting = system.start();
try {
  const url = (await starting) as string;
  const seconds = ((Date.now() - began) / 1000).toFixed(1);
  log.info(`ready in ${seconds} s`);
  log.info(
    `Planning poker API: ${url.replace('127.0.0.1', 'localhost')}  (health: /healthz, readiness: /readyz)`,
  );
  log.info('press Ctrl-C to stop');
} catch (err) {
  if (!stopping) {
    log.error((err as Error).message);
    await shutdown(1);
  }
}
