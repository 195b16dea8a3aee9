import type { Database } from '@pp/db';
import { deleteBusStreams, type EventBus, type NatsConnection, type OutboxRelay } from '@pp/events';
import { signIdentity, type RunningServer } from '@pp/http';
import { createLogger } from '@pp/logger';
import { startService } from '@pp/runtime';
import { createTestDatabase, testNatsUrl, uniqueName, type TestDatabase } from '@pp/testing';
import { definition } from '../../src/app.ts';
import { readConfig, type Config } from '../../src/config.ts';

export const INTERNAL_KEY = 'internal-signing-key-for-tests-0123456789';
export const TOKEN_KEY = 'token-signing-key-for-tests-0123456789abcd';

/** The headers of a call from the gateway itself (token introspection, say). */
export const asService = () => ({
  'x-pp-identity': signIdentity(INTERNAL_KEY, {
    sub: 'gateway',
    kind: 'service',
    iss: 'gateway',
    aud: 'identity',
  }),
});

export interface IdentityHarness {
  url: string;
  config: Config;
  db: Database;
  nc: NatsConnection;
  bus: EventBus;
  relay: OutboxRelay;
  server: RunningServer;
  stop(): Promise<void>;
}

/**
 * The identity service in process: its own fresh database, the shared test NATS with a bus prefix of
 * its own (so tests never see each other's events), the outbox relay running.
 */
export async function startIdentity(env: Record<string, string> = {}): Promise<IdentityHarness> {
  const logger = createLogger({ name: 'identity-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const testDb: TestDatabase = await createTestDatabase('identity');
  const config = readConfig({
    DATABASE_URL: testDb.url,
    NATS_URL: testNatsUrl(),
    INTERNAL_SIGNING_KEY: INTERNAL_KEY,
    TOKEN_SIGNING_KEY: TOKEN_KEY,
    EVENTS_PREFIX: uniqueName('t').toLowerCase(),
    PORT: '0',
    ...env,
  });
  const service = await startService({ ...definition(config), host: '127.0.0.1' }, logger);
  const { db, nc, bus, relay } = service.runtime;
  return {
    url: service.server.url,
    config,
    db,
    nc,
    bus,
    relay,
    server: service.server,
    async stop() {
      await deleteBusStreams(nc, bus);
      await service.stop();
      await testDb.drop();
    },
  };
}
