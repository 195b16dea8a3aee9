import type { RequestHandler } from 'express';
import { MikroORM, RequestContext, type EntityManager, type Options } from '@mikro-orm/postgresql';
import { Migrator, type Migration } from '@mikro-orm/migrations';
import pg from 'pg';
import type { Logger } from '@pp/logger';

export type MigrationClass = new (...args: ConstructorParameters<typeof Migration>) => Migration;

export interface DatabaseOptions {
  /** The service's own database. */
  url: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  entities: any[];
  /** Ordered migrations: name and class. Run at start. */
  migrations: Array<{ name: string; class: MigrationClass }>;
  logger: Logger;
  poolMax?: number;
  /** How long a statement waits for a lock before it fails (LOCK_WAIT_AT_MOST_MS unless given). */
  lockTimeoutMs?: number;
}

export interface Database {
  orm: MikroORM;
  /** A fresh entity manager for work outside an HTTP request (a consumed message, a timer). */
  fork(): EntityManager;
  /** The request-scoped entity manager (falls back to the global one outside a request context). */
  em(): EntityManager;
  /** `SELECT 1` for readiness. */
  check(): Promise<void>;
  /** A request context per HTTP request so identity maps never leak between requests. */
  requestContext: RequestHandler;
  close(): Promise<void>;
}

/**
 * How long a statement of a unit waits for a row or table lock before it fails with SQLSTATE 55P03
 * (lock_not_available), which a request answers as 503 having changed nothing (its transaction rolls
 * back): well under the gateway's upstream timeout (15 s), so that no client is left with a 504 and
 * no telling whether its change was made. Locks are held for milliseconds; a wait this long means a
 * transaction stuck elsewhere. A statement that must wait longer says so itself (`set local`).
 */
export const LOCK_WAIT_AT_MOST_MS = 5_000;

/** The advisory lock the replicas of a unit take turns on to migrate (advisory locks are per database). */
const MIGRATION_LOCK = 7_243_001;

/**
 * Runs `migrate` holding the database's migration lock, on a connection of its own (closing it
 * releases the lock, even when the migration fails). Replicas that start at once on a new database
 * would otherwise create the same tables together, and all but one fail ("relation already exists").
 */
async function withMigrationLock<T>(url: string, migrate: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    return await migrate();
  } finally {
    await client.end();
  }
}

/** Connects to the service's own database and brings its schema up to date. */
export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  const config: Options = {
    clientUrl: options.url,
    entities: options.entities,
    extensions: [Migrator],
    pool: { min: 0, max: options.poolMax ?? 10, idleTimeoutMillis: 30_000 },
    driverOptions: {
      connectionTimeoutMillis: 3_000,
      // Sent at connection start, so every pooled connection has it.
      lock_timeout: options.lockTimeoutMs ?? LOCK_WAIT_AT_MOST_MS,
    },
    migrations: {
      migrationsList: options.migrations,
      // Each migration in a transaction of its own (with its log row), or none for one that builds
      // indexes concurrently (IndexBuildMigration): such a build waits for the transactions open when
      // it starts, and would wait for ever on one holding every migration.
      transactional: true,
      allOrNothing: false,
      tableName: 'mikro_orm_migrations',
      silent: true,
      snapshot: false,
    },
    debug: false,
    allowGlobalContext: false,
    forceUtcTimezone: true,
    ensureDatabase: false,
    discovery: { warnWhenNoEntities: false },
  };
  const orm = await MikroORM.init(config);
  const executed = await withMigrationLock(options.url, () => orm.migrator.up()).catch(
    async (err: unknown) => {
      await orm.close(true);
      throw err;
    },
  );
  if (executed.length > 0)
    options.logger.info({ migrations: executed.map((m) => m.name) }, 'migrations applied');

  return {
    orm,
    fork: () => orm.em.fork(),
    em: () => (RequestContext.getEntityManager() as EntityManager | undefined) ?? orm.em.fork(),
    check: async () => {
      await orm.em.getConnection().execute('select 1');
    },
    requestContext: (_req, _res, next) => RequestContext.create(orm.em, next),
    close: () => orm.close(true),
  };
}
