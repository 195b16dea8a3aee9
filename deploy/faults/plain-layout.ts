/**
 * The plain layout: one process of every unit and of the gateway, as `npm start` runs them, on a
 * PostgreSQL and a NATS of the run's own (given as DATABASE_URL and NATS_URL), which it stops and
 * starts again itself.
 */
import { join } from 'node:path';
import type { LauncherLog } from '../src/launcher/log.ts';
import { units } from '../src/launcher/units.ts';
import { ownNats, ownPostgres, type Restartable } from './dependencies.ts';
import { killUnits, stopServers } from './faults.ts';
import type { RunSettings } from './settings.ts';
import { countOutboxes, startSystem, type Target } from './target.ts';

export async function startPlain(dataDir: string, log: LauncherLog, settings: RunSettings): Promise<Target> {
  const nats = await ownNats(join(dataDir, 'nats'), log);
  const postgres = await ownPostgres(join(dataDir, 'postgres'), log);
  const servers: Restartable[] = [];
  const stopServersNow = () => Promise.all(servers.map((s) => s.stop().catch(() => undefined)));
  try {
    await nats.start();
    servers.push(nats);
    await postgres.start();
    servers.push(postgres);
  } catch (err) {
    await stopServersNow();
    throw err;
  }
  const { system, url, stop } = await startSystem({
    dataDir,
    log,
    settings,
    env: { DATABASE_URL: postgres.url, NATS_URL: nats.url },
    readyTimeoutMs: 120_000,
    cleanup: stopServersNow,
  });
  return {
    url,
    faults: [
      stopServers('NATS stopped', [nats], settings.natsOutageMs),
      stopServers('PostgreSQL stopped', [postgres], settings.postgresOutageMs),
      killUnits(
        'every unit SIGKILLed',
        system.processes,
        units.map((u) => u.name),
      ),
    ],
    outboxes: () => countOutboxes(postgres.url),
    stop,
  };
}
