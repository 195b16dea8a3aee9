import type { RequestHandler } from 'express';
import { MikroORM, RequestContext, type EntityManager, type Options } from '@mikro-orm/postgresql';
import { Migrator, type Migration } from '@mikro-orm/migrations';
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
  const executed = await orm.migrator.up();
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
