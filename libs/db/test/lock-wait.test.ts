import pg from 'pg';
import { send } from '@pp/http';
import { api, createTestDatabase, type TestDatabase } from '@pp/testing';
import { createDatabase, LOCK_WAIT_AT_MOST_MS, type Database } from '../src/index.ts';
import { logger, startDatabaseService } from './support/service.ts';

/** A request whose row another transaction holds: it waits a bounded time, then answers 503. */
describe('a lock held too long', () => {
  const WAIT_MS = 300;
  let testDb: TestDatabase;
  let db: Database;
  let other: pg.Client;
  let server: Awaited<ReturnType<typeof startDatabaseService>>;
  const client = api(() => server.url);
  const valueOf = async () =>
    ((await other.query('select value from counters where id = 1')).rows[0] as { value: number }).value;

  beforeAll(async () => {
    testDb = await createTestDatabase('lockwait');
    db = await createDatabase({
      url: testDb.url,
      entities: [],
      migrations: [],
      logger,
      lockTimeoutMs: WAIT_MS,
    });
    other = new pg.Client({ connectionString: testDb.url });
    await other.connect();
    await other.query('create table counters (id int primary key, value int not null)');
    await other.query('insert into counters values (1, 0)');
    server = await startDatabaseService(db, (a) => {
      a.post('/count', async (_req, res) => {
        await db.em().transactional(async (tx) => {
          await tx
            .getConnection()
            .execute(
              'update counters set value = value + 1 where id = 1',
              [],
              'run',
              tx.getTransactionContext(),
            );
        });
        send(res, 200, { ok: true });
      });
    });
  });
  afterAll(async () => {
    await server.close();
    await other.end();
    await db.close();
    await testDb.drop();
  });

  it('gives up on the lock after the wait it was given, answers 503 database_unavailable, and changes nothing', async () => {
    expect((await client.post('/count', { body: {} })).status).toBe(200);
    await other.query('begin');
    await other.query('select * from counters where id = 1 for update');
    const started = Date.now();
    const res = await client.post('/count', { body: {} });
    const waited = Date.now() - started;
    expect({ status: res.status, code: res.body.error?.code }).toEqual({
      status: 503,
      code: 'database_unavailable',
    });
    expect(res.headers.get('retry-after')).toBe('1');
    expect(waited).toBeGreaterThanOrEqual(WAIT_MS - 20);
    expect(waited).toBeLessThan(WAIT_MS + 3_000);
    await other.query('commit');
    expect(await valueOf()).toBe(1);
    expect((await client.post('/count', { body: {} })).status).toBe(200);
    expect(await valueOf()).toBe(2);
  });

  it(`waits ${LOCK_WAIT_AT_MOST_MS} ms at most by default, on every pooled connection`, async () => {
    const plain = await createDatabase({ url: testDb.url, entities: [], migrations: [], logger });
    try {
      const shown = await Promise.all(
        Array.from({ length: 3 }, () =>
          plain.orm.em
            .fork()
            .transactional(async (tx) =>
              tx.getConnection().execute('show lock_timeout', [], 'all', tx.getTransactionContext()),
            ),
        ),
      );
      expect(shown.flat()).toEqual(Array(3).fill({ lock_timeout: `${LOCK_WAIT_AT_MOST_MS / 1_000}s` }));
    } finally {
      await plain.close();
    }
  });
});
