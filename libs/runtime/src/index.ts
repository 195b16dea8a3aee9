import type { Express } from 'express';
import { inSteps, type Step, type StepsOptions } from '@pp/async';
import {
  createDatabase,
  databaseErrorMapper,
  ensureDatabase,
  type Database,
  type MigrationClass,
} from '@pp/db';
import {
  connectNats,
  ensureStream,
  eventBus,
  natsCheck,
  removeConsumer,
  startConsumer,
  startProcessedEventsPruner,
  startOutboxRelay,
  type ConsumerOptions,
  type NatsConnection,
  type OutboxRelay,
  type RunningConsumer,
  type EventBus,
} from '@pp/events';
import {
  createServiceApp,
  listen,
  unitOpenApiRoutes,
  type ReadinessCheck,
  type RunningServer,
  type UnitDocs,
} from '@pp/http';
import { createLogger, type Logger } from '@pp/logger';
import { runMain } from './main.ts';
import type { BackgroundTask } from './periodic-task.ts';

export interface ServiceRuntime {
  name: string;
  logger: Logger;
  db: Database;
  nc: NatsConnection;
  relay: OutboxRelay;
  bus: EventBus;
  /** Readiness checks of the process's own dependencies (database and broker). */
  readiness: Record<string, ReadinessCheck>;
  isShuttingDown: () => boolean;
  markShuttingDown: () => void;
}

/** A durable consumer of a unit: its name, subject and handlers (the runtime gives it NATS and the database). */
export type ConsumerSpec = Omit<ConsumerOptions, 'nc' | 'orm' | 'logger' | 'bus'>;

export interface ServiceDefinition {
  name: string;
  config: {
    PORT: number;
    /** Where it listens (all interfaces when unset). */
    HOST?: string;
    LOG_LEVEL: string;
    DATABASE_URL: string;
    NATS_URL: string;
    NATS_USER?: string;
    NATS_PASSWORD?: string;
    SHUTDOWN_TIMEOUT_MS: number;
    EVENTS_PREFIX?: string;
    EVENTS_REPLICAS?: number;
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  entities: any[];
  migrations: Array<{ name: string; class: MigrationClass }>;
  createApp: (runtime: ServiceRuntime) => Express | Promise<Express>;
  /** Durable consumers of the service, started once the app listens. */
  consumers?: (runtime: ServiceRuntime) => ConsumerSpec[];
  /**
   * Durable consumers an earlier version ran: deleted at start, once the consumers are running (those
   * that take over from one, `takesOverFrom`, start where it stood), so the broker stops keeping their
   * state.
   */
  retiredConsumers?: string[];
  /** Background work (timers): started after listening, stopped first at shutdown. */
  background?: (runtime: ServiceRuntime) => BackgroundTask[];
  /** The SQL function the outbox relay claims its batches with, when not `outbox_claim` (a migration makes it). */
  outboxClaim?: string;
  host?: string;
}

/** Builds the runtime of one service: its database (migrated), NATS, the stream and the outbox relay. */
export async function createRuntime(
  def: Omit<ServiceDefinition, 'createApp' | 'consumers' | 'background'>,
  logger?: Logger,
): Promise<ServiceRuntime> {
  const log = logger ?? createLogger({ name: def.name, level: def.config.LOG_LEVEL });
  await ensureDatabase(def.config.DATABASE_URL);
  const db = await createDatabase({
    url: def.config.DATABASE_URL,
    entities: def.entities,
    migrations: def.migrations,
    logger: log,
  });
  const bus = eventBus(def.config.EVENTS_PREFIX ?? 'pp');
  const nc = await connectNats({
    url: def.config.NATS_URL,
    name: def.name,
    user: def.config.NATS_USER,
    password: def.config.NATS_PASSWORD,
    logger: log,
  });
  await ensureStream(nc, bus, { replicas: def.config.EVENTS_REPLICAS });
  const relay = startOutboxRelay({ orm: db.orm, nc, logger: log, bus, claimFunction: def.outboxClaim });
  let shuttingDown = false;
  const runtime: ServiceRuntime = {
    name: def.name,
    logger: log,
    db,
    nc,
    relay,
    bus,
    readiness: { database: () => db.check(), nats: () => natsCheck(nc) },
    isShuttingDown: () => shuttingDown,
    markShuttingDown: () => {
      shuttingDown = true;
    },
  };
  return runtime;
}

export interface StartedService {
  runtime: ServiceRuntime;
  server: RunningServer;
  consumers: RunningConsumer[];
  /**
   * Stops in order: stop accepting, background work, consumers, relay, NATS, database. A step still
   * running after `slowStepMs` (10 s) is named in the log (or to `onSlowStep`), and left to finish.
   * Asked again, it gives the stop under way.
   */
  stop: (options?: StopOptions) => Promise<void>;
}

export interface StopOptions {
  slowStepMs?: number;
  onSlowStep?: StepsOptions['onSlow'];
}

/** Starts a service in this process (main.ts and end-to-end tests use the same path). */
export async function startService(def: ServiceDefinition, logger?: Logger): Promise<StartedService> {
  const runtime = await createRuntime(def, logger);
  const app = await def.createApp(runtime);
  const server = await listen(app, def.config.PORT, def.host ?? def.config.HOST);
  const specs = def.consumers?.(runtime) ?? [];
  const consumers = await Promise.all(
    specs.map((c) =>
      startConsumer({ ...c, nc: runtime.nc, orm: runtime.db.orm, logger: runtime.logger, bus: runtime.bus }),
    ),
  );
  // Only now: a consumer that takes over from a retired one starts where that one stood.
  for (const durable of def.retiredConsumers ?? []) await removeConsumer(runtime.nc, runtime.bus, durable);
  const background = def.background?.(runtime) ?? [];
  if (consumers.length > 0)
    background.push(startProcessedEventsPruner({ orm: runtime.db.orm, logger: runtime.logger }));
  runtime.logger.info({ port: server.port }, `${def.name} listening`);
  const steps: Step[] = [
    ['the server', () => server.close()],
    ...background.map((b): Step => [`background: ${b.name}`, () => b.stop()]),
    ...consumers.map((c, i): Step => [`consumer: ${specs[i]!.durable}`, () => c.stop()]),
    ['the outbox relay', () => runtime.relay.stop()],
    ['NATS', () => runtime.nc.drain().catch(() => runtime.nc.close())],
    ['the database', () => runtime.db.close()],
  ];
  const logSlow = (step: string, elapsedMs: number) =>
    runtime.logger.warn({ step, elapsed_ms: elapsedMs }, 'stopping: a step is taking long');
  let stopping: Promise<void> | undefined;
  const stop = (options: StopOptions = {}) =>
    (stopping ??= (async () => {
      runtime.markShuttingDown();
      await inSteps(steps, { slowMs: options.slowStepMs, onSlow: options.onSlowStep ?? logSlow });
    })());
  return { runtime, server, consumers, stop };
}

/** main.ts of a service: start it, and stop it gracefully on SIGTERM / SIGINT. */
export function runService(def: ServiceDefinition): Promise<StartedService> {
  return runMain(
    def,
    (logger) => startService(def, logger),
    (started) => started.runtime.markShuttingDown(),
  );
}

/**
 * The express app of a service on its runtime: the shared stack of libs/http, database errors in the
 * platform's terms, the description of its public paths for the gateway (`docs`, from the zod schemas
 * its routes validate with), and a MikroORM request context around the unit's own routes. `bodyLimit`
 * raises the largest JSON body (256 kB by default) and `maxBodyEntries` the most values in it (10,000)
 * for a unit that takes larger ones.
 */
export function createRuntimeApp(
  runtime: ServiceRuntime,
  identityKey: string,
  routes: (app: Express) => void,
  docs: UnitDocs = {},
  options: { bodyLimit?: string; maxBodyEntries?: number } = {},
): Express {
  return createServiceApp({
    logger: runtime.logger,
    unit: runtime.name,
    bodyLimit: options.bodyLimit,
    maxBodyEntries: options.maxBodyEntries,
    identityKey,
    readiness: runtime.readiness,
    isShuttingDown: runtime.isShuttingDown,
    errorMappers: [databaseErrorMapper],
    routes: (app) => {
      app.use(unitOpenApiRoutes(runtime.name, docs));
      app.use(runtime.db.requestContext);
      routes(app);
    },
  });
}
export * from './periodic-task.ts';
export * from './stateless.ts';
