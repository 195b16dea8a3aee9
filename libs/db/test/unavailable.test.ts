import { send } from '@pp/http';
import { api, createTestDatabase, startTcpProxy, until, type TestDatabase } from '@pp/testing';
import { createDatabase, preparedRows, type Database } from '../src/index.ts';
import { logger, startDatabaseService } from './support/service.ts';

/** A service whose database goes away (a proxy in front of PostgreSQL is cut) and comes back. */
describe('database outage', () => {
  let testDb: TestDatabase;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let db: Database;
  let server: Awaited<ReturnType<typeof startDatabaseService>>;
  const client = api(() => server.url);

  beforeAll(async () => {
    testDb = await createTestDatabase('outage');
    const real = new URL(testDb.url);
    proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 5432) });
    const viaProxy = new URL(testDb.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    db = await createDatabase({ url: viaProxy.toString(), entities: [], migrations: [], logger });
    server = await startDatabaseService(db, (a) => {
      a.get('/orm', async (_req, res) => {
        await db.em().getConnection().execute('select 1');
        send(res, 200, { ok: true });
      });
      a.get('/prepared', async (_req, res) => {
        await preparedRows(db.em(), { name: 'db-test.one', text: 'select 1 as one' }, []);
        send(res, 200, { ok: true });
      });
    });
  });
  afterAll(async () => {
    await server.close();
    await db.close();
    await proxy.close();
    await testDb.drop();
  });

  it('answers 503 database_unavailable while PostgreSQL cannot be reached, and 200 once it is back', async () => {
    expect((await client.get('/orm')).status).toBe(200);
    expect((await client.get('/prepared')).status).toBe(200);

    proxy.cut();
    for (const path of ['/orm', '/prepared', '/orm']) {
      const started = Date.now();
      const res = await client.get(path);
      expect({ path, status: res.status, code: res.body.error?.code }).toEqual({
        path,
        status: 503,
        code: 'database_unavailable',
      });
      expect(Date.now() - started).toBeLessThan(5_000);
    }

    proxy.restore();
    await until(async () => (await client.get('/orm')).status === 200);
    await until(async () => (await client.get('/prepared')).status === 200);
  });
});
