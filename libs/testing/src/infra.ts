import { randomBytes } from 'node:crypto';
import { ensureDatabase, dropDatabase, withDatabaseName } from '@pp/db';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
export const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';

/** PostgreSQL of the tests: DATABASE_URL (the global setup sets it to the server it found or started). */
export const testServerUrl = () => process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
export const testNatsUrl = () => process.env.NATS_URL || DEFAULT_NATS_URL;
/** Redis of the tests: TEST_REDIS_URL (the global setup sets it), never REDIS_URL, which gateways read. */
export const testRedisUrl = () => process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh database for one test file, dropped at the end. */
export async function createTestDatabase(unit: string): Promise<TestDatabase> {
  const name = `test_${unit.replace(/[^a-z0-9]/gi, '_')}_${randomBytes(4).toString('hex')}`.toLowerCase();
  const url = withDatabaseName(testServerUrl(), name);
  await ensureDatabase(url);
  return { url, drop: () => dropDatabase(url) };
}

/** A unique prefix so tests sharing one NATS server never see each other's streams and consumers. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`.toUpperCase();
}
