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
    driverOptions: { connectionTimeoutMillis: 3_000 },
    migrations: {
      migrationsList: options.migrations,
      transactional: true,
      allOrNothing: true,
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
