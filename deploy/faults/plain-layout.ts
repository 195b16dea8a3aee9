/**
 * The plain layout: one process of every unit and of the gateway, as `npm start` runs them, on a
 * PostgreSQL and a NATS of the run's own (given as DATABASE_URL and NATS_URL), which it stops and
 * starts again itself.
 */
import { join } from 'node:path';
import type { LauncherLog } from '../src/launcher/log.ts';
import { createSystem } from '../src/launcher/system.ts';
import { units } from '../src/launcher/units.ts';
import { ownNats, ownPostgres, type Restartable } from './dependencies.ts';
import { killUnits, stopServers } from './faults.ts';
import type { RunSettings } from './settings.ts';
import { countOutboxes, unitSettings, type Target } from './target.ts';

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
  const system = createSystem({
    env: { ...unitSettings(settings), DATABASE_URL: postgres.url, NATS_URL: nats.url },
    dataDir: join(dataDir, 'launcher'),
    log,
    readyTimeoutMs: 120_000,
    units: units.map((u) => ({ ...u, preferredPort: 0 })),
  });
  const stop = async () => {
    await system.stop();
    await stopServersNow();
  };
  let url: string;
  try {
    url = await system.start();
  } catch (err) {
    await stop();
    throw err;
  }
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
