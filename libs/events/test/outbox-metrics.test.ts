import type { MikroORM } from '@mikro-orm/postgresql';
import { createDatabase, type Database } from '@pp/db';
import { registry } from '@pp/http';
import { createLogger } from '@pp/logger';
import { createTestDatabase, testNatsUrl, uniqueName, until, type TestDatabase } from '@pp/testing';
import {
  connectNats,
  enqueue,
  eventBus,
  eventEntities,
  eventsMigrations,
  startOutboxRelay,
  type NatsConnection,
} from '../src/index.ts';

const logger = createLogger({ name: 'outbox-metrics-test', level: 'silent' });
const valueOf = async (name: string) => (await registry.getSingleMetric(name)!.get()).values[0]?.value ?? 0;

/** The outbox's depth and age, as the dashboard shows them and the alert watches the age. */
describe('outbox metrics', () => {
  let testDb: TestDatabase;
  let db: Database;
  let nc: NatsConnection;

  beforeAll(async () => {
    testDb = await createTestDatabase('outbox_metrics');
    db = await createDatabase({
      url: testDb.url,
      entities: eventEntities,
      migrations: eventsMigrations,
      logger,
    });
    nc = await connectNats({ url: testNatsUrl(), name: 'outbox-metrics-test', logger });
  });

  afterAll(async () => {
    await nc.close();
    await db.close();
    await testDb.drop();
  });

  it('report how many events wait and how long the oldest has', async () => {
    // A bus without its stream: the broker takes nothing, so the event stays in the outbox.
    const bus = eventBus(uniqueName('nostream').toLowerCase());
    const em = db.fork();
    enqueue(em, 'token.revoked', { token_id: 't1', user_id: 'u1', kind: 'api' }, { source: 'test' });
    await em.flush();
    await db.fork().getConnection().execute(`update outbox set created_at = now() - interval '90 seconds'`);
    const relay = startOutboxRelay({ orm: db.orm as MikroORM, nc, logger, bus, intervalMs: 50 });
    try {
      await until(async () => (await valueOf('outbox_oldest_age_seconds')) > 0);
      expect(await valueOf('outbox_backlog')).toBe(1);
      expect(await valueOf('outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(90);
    } finally {
      await relay.stop();
    }
  });
});
