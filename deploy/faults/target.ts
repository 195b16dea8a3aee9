/** What both layouts give the run: a system it can hurt, started with the run's settings. */
import { runStatement, withDatabaseName } from '@pp/db';
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
