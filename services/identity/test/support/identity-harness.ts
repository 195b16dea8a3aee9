import { jetstreamManager } from '@nats-io/jetstream';
import { createDatabase, type Database } from '@pp/db';
import {
  connectNats,
  ensureStream,
  eventBus,
  startOutboxRelay,
  type EventBus,
  type NatsConnection,
  type OutboxRelay,
} from '@pp/events';
import type { RunningServer } from '@pp/http';
import { createLogger } from '@pp/logger';
import { createTestDatabase, startApp, testNatsUrl, uniqueName, type TestDatabase } from '@pp/testing';
import { createApp } from '../../src/app.ts';
import { readConfig, type Config } from '../../src/config.ts';
import { entities } from '../../src/db/entities/index.ts';
import { migrations } from '../../src/db/migrations/index.ts';

export const INTERNAL_KEY = 'internal-signing-key-for-tests-0123456789';
export const TOKEN_KEY = 'token-signing-key-for-tests-0123456789abcd';

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
    ...env,
  });
  const db = await createDatabase({ url: config.DATABASE_URL, entities, migrations, logger, poolMax: 5 });
  const nc = await connectNats({ url: config.NATS_URL, name: 'identity-test', logger });
  const bus = eventBus(uniqueName('t').toLowerCase());
  await ensureStream(nc, bus);
  const relay = startOutboxRelay({ orm: db.orm, nc, logger, bus, intervalMs: 200 });
  const app = createApp({ config, db, logger, publish: () => relay.kick() });
  const server = await startApp(app);
  return {
    url: server.url,
    config,
    db,
    nc,
    bus,
    relay,
    server,
    async stop() {
      await server.close();
      await relay.stop();
      const jsm = await jetstreamManager(nc);
      for (const stream of [bus.stream, bus.deadLetterStream])
        await jsm.streams.delete(stream).catch(() => undefined);
      await nc.close();
      await db.close();
      await testDb.drop();
    },
  };
}
