/**
 * The scaled-out layout: two processes of every unit and of the gateway behind the launcher's fronts,
 * a JetStream cluster of three NATS servers run by the launcher (the event streams kept on each), on a
 * PostgreSQL of the run's own (given as DATABASE_URL), which it stops and starts again itself.
 */
import { join } from 'node:path';
import type { LauncherLog } from '../src/launcher/log.ts';
import { units } from '../src/launcher/units.ts';
import { ownPostgres } from './dependencies.ts';
import { eventBus } from '@pp/events';
import { killUnits, stopServers } from './faults.ts';
import type { RunSettings } from './settings.ts';
import { killStreamLeader } from './stream-leader.ts';
import { countOutboxes, startSystem, type Target } from './target.ts';

export const REPLICAS = 2;
export const NATS_SERVERS = 3;

export async function startCluster(
  dataDir: string,
  log: LauncherLog,
  settings: RunSettings,
): Promise<Target> {
  const postgres = await ownPostgres(join(dataDir, 'postgres'), log);
  await postgres.start();
  const { system, url, stop } = await startSystem({
    dataDir,
    log,
    settings,
    env: { DATABASE_URL: postgres.url },
    readyTimeoutMs: 180_000,
    replicas: REPLICAS,
    natsCluster: NATS_SERVERS,
    cleanup: () => postgres.stop().catch(() => undefined),
  });
  const nats = system.natsServers();
  return {
    url,
    faults: [
      killStreamLeader(nats, eventBus().stream, settings.natsKillMs),
      stopServers(`all ${nats.length} NATS servers stopped`, nats, settings.natsOutageMs),
      stopServers('PostgreSQL stopped', [postgres], settings.postgresOutageMs),
      // The first replica of each unit: the launcher lists them first.
      killUnits(
        'a replica of every unit SIGKILLed',
        system.processes,
        units.map((u) => u.name),
      ),
    ],
    outboxes: () => countOutboxes(postgres.url),
    stop,
  };
}
