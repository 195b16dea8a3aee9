import { createLogger } from '@pp/logger';
import { createTestDatabase, type TestDatabase } from '@pp/testing';
import { createDatabase, isRetryableDatabaseError, type Database } from '../src/index.ts';

const logger = createLogger({ name: 'db-retryable-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** Which failures a write may try again: those that say nothing of what it writes. */
describe('retryable database errors', () => {
  let testDb: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    testDb = await createTestDatabase('retryable');
    db = await createDatabase({ url: testDb.url, entities: [], migrations: [], logger });
    await db.fork().getConnection().execute('create table rows (id int primary key, note text)');
    await db.fork().getConnection().execute(`insert into rows values (1, ''), (2, '')`);
  });
  afterAll(async () => {
    await db.close();
    await testDb.drop();
  });

  it('a deadlock is one (the write lost to another), a row PostgreSQL cannot keep is not', async () => {
    // Two transactions take the two rows in opposite orders: PostgreSQL aborts one of them.
    let markLocked!: () => void;
    let locked = 0;
    const bothLocked = new Promise<void>((resolve) => (markLocked = () => ++locked === 2 && resolve()));
    const cross = (first: number, second: number) =>
      db.fork().transactional(async (tx) => {
        const sql = (id: number, note: string) =>
          tx
            .getConnection()
            .execute('update rows set note = ? where id = ?', [note, id], 'run', tx.getTransactionContext());
        await sql(first, 'x');
        markLocked();
        await bothLocked;
        await sql(second, 'y');
      });
    const outcomes = await Promise.allSettled([cross(1, 2), cross(2, 1)]);
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(lost).toHaveLength(1);
    expect((lost[0]!.reason as { code?: string }).code).toBe('40P01');
    expect(isRetryableDatabaseError(lost[0]!.reason)).toBe(true);

    const refused = await db
      .fork()
      .getConnection()
      .execute(`insert into rows values (3, ?)`, ['a\u0000b'])
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(Error);
    expect(isRetryableDatabaseError(refused)).toBe(false);
  });
});
