import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GATEWAY_PORT, services, serviceUrlVar, type ServiceName } from '@pp/config';
import { withDatabaseName } from '@pp/db';
import { brokerUsers, natsPasswordVariable, type BrokerUserName } from '@pp/events';
import { KEY_NAMES, NATS_PASSWORD_NAMES, type Secrets } from './secrets.ts';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The Node that runs the units' TypeScript: this one when it strips types (it does under `npm start`),
 * else the project's pinned Node 24.
 */
export function nodeBinary(): string {
  const pinned = join(repoRoot, 'node_modules', 'node', 'bin', 'node');
  const features = process.features as { typescript?: unknown };
  return features.typescript || !existsSync(pinned) ? process.execPath : pinned;
}

/** One process the launcher runs: the gateway or a service. */
export interface Unit {
  name: 'gateway' | ServiceName;
  /** Entry file relative to the repository root. */
  entry: string;
  preferredPort: number;
  /** The unit's own database; the gateway has none. */
  database?: string;
  /** Settings of its Node process, before the entry file (the same under compose and Kubernetes). */
  nodeOptions?: readonly string[];
}

/**
 * The V8 settings of a unit's process, where the defaults do not fit it. A sessions replica holds the
 * live room streams, long-lived and many: its young generation is kept small (V8 grows each of its
 * semi-spaces up to 16 MB as the process starts, and keeps them; at 4 MB each, which still holds a
 * request's short-lived objects, an idle replica's resident memory measured 24 MB lower).
 */
export const NODE_OPTIONS: Partial<Record<Unit['name'], readonly string[]>> = {
  sessions: ['--max-semi-space-size=4'],
};

export const units: readonly Unit[] = [
  ...services.map((s) => ({
    name: s.name,
    entry: join('services', s.name, 'src', 'main.ts'),
    preferredPort: s.port,
    database: s.database,
    nodeOptions: NODE_OPTIONS[s.name],
  })),
  { name: 'gateway', entry: join('gateway', 'src', 'main.ts'), preferredPort: GATEWAY_PORT },
];

export interface LaunchContext {
  /** The launcher's own environment: passed on, so settings such as RATE_LIMIT_PER_MINUTE reach the units. */
  env: Record<string, string | undefined>;
  /** A PostgreSQL server URL; each service gets its own database on it. */
  databaseServerUrl: string;
  natsUrl: string;
  /** Set when the launcher runs the broker: each unit connects as its own user (nats-auth.ts). */
  natsUsers?: boolean;
  secrets: Secrets;
  /** The address each unit is reached at: its own port, or its front's when it runs several replicas. */
  ports: ReadonlyMap<string, number>;
  /** With several replicas: each replica's own port, by unit name. */
  replicaPorts?: ReadonlyMap<string, readonly number[]>;
  /** On how many NATS servers the event streams are kept (set when the launcher runs a cluster). */
  eventsReplicas?: number;
}

/** The URL of each unit's database on the given server, e.g. `.../pp_sessions`. */
export function databaseUrls(serverUrl: string): Record<string, string> {
  return Object.fromEntries(
    units.filter((u) => u.database).map((u) => [u.name, withDatabaseName(serverUrl, u.database!)]),
  );
}

export function portOf(ctx: Pick<LaunchContext, 'ports'>, name: string): number {
  const port = ctx.ports.get(name);
  if (port === undefined) throw new Error(`no port chosen for ${name}`);
  return port;
}

/** Where the units listen under `npm start`: loopback, so that only this machine reaches them. */
export const UNIT_HOST = '127.0.0.1';

/**
 * HOST as `npm start` takes it for the gateway: unset means loopback (only this machine; `0.0.0.0`
 * opens it to the network); otherwise an IP address. The services always listen on loopback: from
 * elsewhere, only the gateway (with its rate limits and its checks) is reachable.
 */
export function requestedHost(value: string | undefined): string {
  if (value === undefined || value === '') return UNIT_HOST;
  if (value !== 'localhost' && isIP(value) === 0)
    throw new Error(`HOST must be an IP address such as 127.0.0.1 or 0.0.0.0, not "${value}"`);
  return value;
}

/** The address this machine reaches a unit at: loopback when it listens on every interface or on loopback. */
export function reachableHost(host: string): string {
  if (['0.0.0.0', '::', 'localhost', UNIT_HOST].includes(host)) return UNIT_HOST;
  return isIP(host) === 6 ? `[${host}]` : host;
}

/** Where a unit's own processes listen: the gateway on HOST, unless its replicas are behind a front (which takes HOST). */
const hostOf = (unit: Unit, ctx: LaunchContext) =>
  unit.name === 'gateway' && !ctx.replicaPorts?.has(unit.name) ? requestedHost(ctx.env.HOST) : UNIT_HOST;

/** The complete environment of one unit's process (of its replica `replica`, 0-based, when it runs several). */
export function unitEnvironment(unit: Unit, ctx: LaunchContext, replica = 0): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.env)) if (v !== undefined) env[k] = v;
  delete env.DATABASE_URL;
  // Every unit's broker password is for that unit alone: none is passed on as it is.
  for (const name of NATS_PASSWORD_NAMES) delete env[name];
  for (const s of services) env[serviceUrlVar(s.name)] = `http://127.0.0.1:${portOf(ctx, s.name)}`;
  for (const name of KEY_NAMES) env[name] = ctx.secrets[name];
  if (ctx.natsUsers && unit.name in brokerUsers) {
    env.NATS_USER = unit.name;
    env.NATS_PASSWORD = ctx.secrets[natsPasswordVariable(unit.name as BrokerUserName)]!;
  }
  Object.assign(env, {
    PORT: String(ctx.replicaPorts?.get(unit.name)?.[replica] ?? portOf(ctx, unit.name)),
    HOST: hostOf(unit, ctx),
    LOG_LEVEL: ctx.env.LOG_LEVEL ?? 'info',
    NATS_URL: ctx.natsUrl,
  });
  if (ctx.eventsReplicas && !ctx.env.EVENTS_REPLICAS) env.EVENTS_REPLICAS = String(ctx.eventsReplicas);
  if (unit.database) env.DATABASE_URL = withDatabaseName(ctx.databaseServerUrl, unit.database);
  return env;
}
