import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GATEWAY_PORT, services, serviceUrlVar, type ServiceName } from '@pp/config';
import { withDatabaseName } from '@pp/db';
import type { Secrets } from './secrets.ts';

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
}

export const units: readonly Unit[] = [
  ...services.map((s) => ({
    name: s.name,
    entry: join('services', s.name, 'src', 'main.ts'),
    preferredPort: s.port,
    database: s.database,
  })),
  { name: 'gateway', entry: join('gateway', 'src', 'main.ts'), preferredPort: GATEWAY_PORT },
];

export interface LaunchContext {
  /** The launcher's own environment: passed on, so settings such as RATE_LIMIT_PER_MINUTE reach the units. */
  env: Record<string, string | undefined>;
  /** A PostgreSQL server URL; each service gets its own database on it. */
  databaseServerUrl: string;
  natsUrl: string;
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

/** The complete environment of one unit's process (of its replica `replica`, 0-based, when it runs several). */
export function unitEnvironment(unit: Unit, ctx: LaunchContext, replica = 0): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.env)) if (v !== undefined) env[k] = v;
  delete env.DATABASE_URL;
  for (const s of services) env[serviceUrlVar(s.name)] = `http://127.0.0.1:${portOf(ctx, s.name)}`;
  Object.assign(env, ctx.secrets, {
    PORT: String(ctx.replicaPorts?.get(unit.name)?.[replica] ?? portOf(ctx, unit.name)),
    LOG_LEVEL: ctx.env.LOG_LEVEL ?? 'info',
    NATS_URL: ctx.natsUrl,
  });
  if (ctx.eventsReplicas && !ctx.env.EVENTS_REPLICAS) env.EVENTS_REPLICAS = String(ctx.eventsReplicas);
  if (unit.database) env.DATABASE_URL = withDatabaseName(ctx.databaseServerUrl, unit.database);
  return env;
}
