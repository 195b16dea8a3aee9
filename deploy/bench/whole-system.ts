/**
 * What the whole-system benchmarks share: the system as `npm start` runs it (every unit its own
 * process, the rate limit raised so that the load is not refused), and a JSON client for the API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLauncherLog } from '../src/launcher/log.ts';
import { createSystem } from '../src/launcher/system.ts';
import type { Unit } from '../src/launcher/units.ts';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A JSON request to the API; anything but a 2xx throws with the answer. */
export async function json(method: string, url: string, body?: unknown, token?: string): Promise<Json> {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = (await res.json()) as Json;
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}

/** PostgreSQL and NATS as the environment names them, else this machine's. */
export const benchServers = () => ({
  databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
});

/**
 * The whole system on those servers, with its generated secrets in a directory of its own;
 * `stop()` stops it and removes that directory.
 */
export function benchSystem(options: { env?: Record<string, string>; units?: readonly Unit[] } = {}) {
  const { databaseUrl, natsUrl } = benchServers();
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-bench-'));
  const system = createSystem({
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      NATS_URL: natsUrl,
      PORT: '',
      RATE_LIMIT_PER_MINUTE: '100000000',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    dataDir,
    log: createLauncherLog(['bench']),
    readyTimeoutMs: 90_000,
    ...(options.units ? { units: options.units } : {}),
  });
  return {
    start: () => system.start(),
    async stop() {
      await system.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
