import type { Express } from 'express';
import { createServiceApp } from '@pp/http';
import { createLogger } from '@pp/logger';
import { startApp } from '@pp/testing';
import { databaseErrorMapper, type Database } from '../../src/index.ts';

export const logger = createLogger({ name: 'db-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** A unit's HTTP service on the database, with the routes given and database errors mapped as units map them. */
export function startDatabaseService(db: Database, routes: (app: Express) => void) {
  const app = createServiceApp({
    logger,
    unit: 'sessions',
    identityKey: 'identity-key-for-db-tests-0123456789abcdef',
    readiness: {},
    errorMappers: [databaseErrorMapper],
    routes: (a) => {
      a.use(db.requestContext);
      routes(a);
    },
  });
  return startApp(app);
}
