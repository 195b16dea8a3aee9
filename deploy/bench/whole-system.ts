/**
 * What the whole-system benchmarks share: the system as `npm start` runs it (every unit its own
 * process, the rate limit raised so that the load is not refused), and a JSON client for the API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLauncherLog } from '../src/launcher/log.ts';
import { createSystem } from '../src/launcher/system.ts';
import { cpuPerOperation, formatCpu, median, readCpu, type CpuReading } from '@pp/bench';
import { dropDatabase, withDatabaseName } from '@pp/db';
import { connectNats, deleteStreams, eventBus } from '@pp/events';
import { createLogger } from '@pp/logger';
import { units, type Unit } from '../src/launcher/units.ts';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Kept-alive connections for the load: node's own HTTP client costs a fraction of fetch's CPU per
 * request, and the load generator shares the machine's cores with the system it measures.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** One request on the kept-alive connections; resolves with the whole answer, unread. */
function request(
  method: string,
  url: string,
  options: { payload?: string; token?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const { payload, token } = options;
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: {
          ...options.headers,
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A JSON request to the API; anything but a 2xx throws with the answer. */
export async function json(method: string, url: string, body?: unknown, token?: string): Promise<Json> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const res = await request(method, url, { payload, token });
  const data = JSON.parse(res.body.toString('utf8')) as Json;
  if (res.status < 200 || res.status >= 300)
    throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}

/**
 * A GET as a load generator sends it: it takes gzip, as a browser does, and reads the answer to its
 * end without unpacking or parsing it (a real client does that on a machine of its own; here it would
 * take the cores of the system measured). Resolves with the status, the encoding and the body.
 */
export async function fetchRaw(url: string, token?: string) {
  const res = await request('GET', url, { token, headers: { 'accept-encoding': 'gzip' } });
  return { status: res.status, encoding: res.headers['content-encoding'], body: res.body };
}

/**
 * The name a run's databases and event stream carry (`BENCH_NAME`, default `bench`): runs on the same
 * servers under different names never drop or read each other's.
 */
export const benchName = () => (process.env.BENCH_NAME ?? 'bench').toLowerCase().replace(/[^a-z0-9]/g, '');

/** PostgreSQL and NATS as the environment names them, else this machine's. */
export const benchServers = () => ({
  databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
});

/**
 * The whole system on those servers, on databases of its own (each unit's name with `_<benchName()>`),
 * empty at the start and dropped at the stop: a run never measures what an earlier one left (on a
 * server without autovacuum, the dead rows of earlier runs would slow every later one), nor touches
 * the databases `npm start` uses. Its events go to a stream of its own (prefix `eventsPrefix`,
 * default `pp<benchName()>`), also emptied at the start and dropped at the stop: what a benchmark publishes
 * never reaches the `pp` stream that `npm start` reads. Its generated secrets live in a directory of
 * its own, removed at the stop. `units` (default: all) picks the units to run.
 */
export function benchSystem(
  options: { env?: Record<string, string>; units?: readonly Unit[]; eventsPrefix?: string } = {},
) {
  const { databaseUrl, natsUrl } = benchServers();
  const eventsPrefix = options.eventsPrefix ?? `pp${benchName()}`;
  const bus = eventBus(eventsPrefix);
  const dropBus = () => dropStreams(natsUrl, [bus.stream, bus.deadLetterStream]);
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-bench-'));
  const list = (options.units ?? units).map((u) =>
    u.database ? { ...u, database: `${u.database}_${benchName()}` } : u,
  );
  const databaseOf = (name: Unit['name']) => {
    const unit = list.find((u) => u.name === name);
    if (!unit?.database) throw new Error(`${name} has no database in this benchmark`);
    return withDatabaseName(databaseUrl, unit.database);
  };
  const dropAll = () =>
    Promise.all(list.filter((u) => u.database).map((u) => dropDatabase(databaseOf(u.name))));
  const system = createSystem({
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      NATS_URL: natsUrl,
      PORT: '',
      RATE_LIMIT_PER_MINUTE: '100000000',
      LOG_LEVEL: 'warn',
      EVENTS_PREFIX: eventsPrefix,
      ...options.env,
    },
    dataDir,
    log: createLauncherLog(['bench']),
    readyTimeoutMs: 90_000,
    units: list,
  });
  return {
    async start() {
      await Promise.all([dropAll(), dropBus()]);
      return system.start();
    },
    processes: () => system.processes(),
    /** A unit's database URL in this run (benchmarks seed data straight into it). */
    databaseOf,
    async stop() {
      await system.stop();
      await Promise.all([dropAll(), dropBus()]).catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Deletes JetStream streams by name (nothing for one that does not exist). */
export async function dropStreams(natsUrl: string, names: readonly string[]) {
  const nc = await connectNats({
    url: natsUrl,
    name: 'bench-streams',
    logger: createLogger({ name: 'bench', level: 'silent' }),
  });
  try {
    await deleteStreams(nc, names);
  } finally {
    await nc.close();
  }
}

/** Runs a measurement and notes the CPU each process of the system spent per operation of it. */
export type Metered = <T extends { name: string; count: number }>(measure: () => Promise<T>) => Promise<T>;

/** How long after a measurement its deferred work (the events' consumers) is still counted. */
export const SETTLE_MS = 1_000;

/**
 * Meters measurements (`metered`); a measurement made in rounds (the same name each time) is metered
 * round by round. `cpuOf` is the median of a measurement's rounds (ms of the system's CPU per
 * operation); `report` logs what each cost per operation, process by process, under `title`: the
 * median round of each, with the spread of the rounds' totals.
 */
export function cpuMeter(processes: () => Array<{ name: string; pid: number | undefined }>) {
  const costs: Array<{ name: string; cost: ReturnType<typeof cpuPerOperation> }> = [];
  const read = (): CpuReading => readCpu(processes(), ['postgres', 'nats-server']);
  const metered: Metered = async (measure) => {
    const before = read();
    const result = await measure();
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    costs.push({ name: result.name, cost: cpuPerOperation(before, read(), result.count) });
    return result;
  };
  const roundsOf = (name: string) => costs.filter((c) => c.name === name);
  const cpuOf = (name: string) => median(roundsOf(name).map((c) => c.cost.total));
  const report = (log: (line: string) => void, title: string) => {
    log(title);
    for (const name of new Set(costs.map((c) => c.name))) {
      const rounds = roundsOf(name);
      const mid = cpuOf(name);
      const shown = rounds.reduce((a, b) =>
        Math.abs(b.cost.total - mid) < Math.abs(a.cost.total - mid) ? b : a,
      );
      const spread =
        rounds.length > 1
          ? ` [${rounds.length} rounds: ${rounds.map((r) => r.cost.total.toFixed(1)).join(', ')}]`
          : '';
      log(`  ${name.padEnd(32)} ${formatCpu(shown.cost)}${spread}`);
    }
  };
  return { metered, costs, cpuOf, report };
}
