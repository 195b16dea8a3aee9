/** What both layouts give the run: a system it can hurt, started with the run's settings. */
import { join } from 'node:path';
import { runStatement, withDatabaseName } from '@pp/db';
import type { LauncherLog } from '../src/launcher/log.ts';
import { createSystem, type System } from '../src/launcher/system.ts';
import { units } from '../src/launcher/units.ts';
import type { Fault } from './faults.ts';
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
    // Tokens checked with the identity unit every second rather than every 30 s: the check itself
    // meets every fault (a valid token must get 503 then, never 401).
    TOKEN_CACHE_TTL_SECONDS: '1',
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

/**
 * The launcher's system on the run's dependencies, as both layouts start it: every unit on a port of
 * its own choosing, the run's settings and `env` (where PostgreSQL and NATS are), in `dataDir`. Once
 * it is ready, its front's URL and a stop that also runs `cleanup` (the run's own dependencies);
 * when it does not start, both are stopped and the error is thrown.
 */
export async function startSystem(options: {
  dataDir: string;
  log: LauncherLog;
  settings: RunSettings;
  env: Record<string, string>;
  readyTimeoutMs: number;
  replicas?: number;
  natsCluster?: number;
  cleanup: () => Promise<unknown>;
}): Promise<{ system: System; url: string; stop: () => Promise<void> }> {
  const system = createSystem({
    env: { ...unitSettings(options.settings), ...options.env },
    dataDir: join(options.dataDir, 'launcher'),
    log: options.log,
    readyTimeoutMs: options.readyTimeoutMs,
    units: units.map((u) => ({ ...u, preferredPort: 0 })),
    replicas: options.replicas,
    natsCluster: options.natsCluster,
  });
  const stop = async () => {
    await system.stop();
    await options.cleanup();
  };
  try {
    return { system, url: await system.start(), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
