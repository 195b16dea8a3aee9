/**
 * The plain layout: one process of every unit and of the gateway, as `npm start` runs them, on a
 * PostgreSQL and a NATS of the run's own (given as DATABASE_URL and NATS_URL), which it stops and
 * starts again itself.
 */
import { join } from 'node:path';
import { runStatement, withDatabaseName } from '@pp/db';
import type { LauncherLog } from '../src/launcher/log.ts';
import { createSystem } from '../src/launcher/system.ts';
import { units } from '../src/launcher/units.ts';
import { ownNats, ownPostgres, type Restartable } from './dependencies.ts';
import { killUnits, stopServers, type Fault } from './faults.ts';
import type { RunSettings } from './settings.ts';

/** A running system the run can hurt: its front's URL, its faults, and a look at its outboxes. */
export interface Target {
  url: string;
  faults: Fault[];
  /** Rows left in each unit's outbox table (null: could not be read). */
  outboxes(): Promise<Record<string, number | null>>;
  stop(): Promise<void>;
}

/** The environment the run gives the units on top of the launcher's. */
export function unitSettings(settings: RunSettings): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'warn',
    // The run measures faults, not the rate limit.
    RATE_LIMIT_PER_MINUTE: '100000000',
    // The webhook receiver listens on 127.0.0.1.
    OUTBOUND_ALLOW_PRIVATE: 'true',
    // Retries a few seconds apart instead of minutes, so they happen within the run.
    WEBHOOKS_RETRY_SCALE: '0.01',
    UPSTREAM_TIMEOUT_MS: String(settings.upstreamTimeoutMs),
  };
}

/** Rows in the outbox table of each unit that has a database on `serverUrl`. */
export async function countOutboxes(serverUrl: string, databaseOf: (db: string) => string = (d) => d) {
  const counts: Record<string, number | null> = {};
  for (const unit of units.filter((u) => u.database)) {
    const url = withDatabaseName(serverUrl, databaseOf(unit.database!));
    counts[unit.name] = await runStatement(url, 'select 1 from outbox').catch(() => null);
  }
  return counts;
}

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
