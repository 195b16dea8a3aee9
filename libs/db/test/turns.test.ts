import { createLogger } from '@pp/logger';
import { createTestDatabase, type TestDatabase } from '@pp/testing';
import { createDatabase, inTurn, type Database, type EntityManager } from '../src/index.ts';

const logger = createLogger({ name: 'db-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

const run = (em: EntityManager, sql: string, params: unknown[] = []) =>
  em.getConnection().execute(sql, params, 'all', em.getTransactionContext()) as Promise<
    Array<Record<string, unknown>>
  >;

/** "At most 5 per owner": a count, then an insert when it allows one. */
async function addUnderLimit(tx: EntityManager, owner: string) {
  const count = (await run(tx, 'select count(*)::int as count from items where owner = ?', [owner]))[0]!
    .count as number;
  if (count >= 5) return [];
  await new Promise((r) => setTimeout(r, 5));
  return run(tx, 'insert into items (owner) values (?) returning id', [owner]);
}

describe('inTurn', () => {
  let testDb: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase('turns');
    db = await createDatabase({ url: testDb.url, entities: [], migrations: [], logger });
    await run(db.em(), 'create table items (id serial primary key, owner text not null)');
  });
  afterAll(async () => {
    await db.close();
    await testDb.drop();
  });

  it('makes a limit hold against a burst: 30 at once on one key add exactly 5', async () => {
    const added = await Promise.all(
      Array.from({ length: 30 }, () =>
        inTurn(db.em().fork(), 'items-of:ann', async (tx) => (await addUnderLimit(tx, 'ann')).length),
      ),
    );
    expect(added.filter((n) => n === 1)).toHaveLength(5);
    const count = (await run(db.em(), `select count(*)::int as count from items where owner = 'ann'`))[0]!
      .count;
    expect(count).toBe(5);
  });

  it('lets work on other keys go on while a turn is held', async () => {
    let release!: () => void;
    const held = inTurn(db.em().fork(), 'items-of:bob', (tx) =>
      new Promise<void>((resolve) => (release = resolve)).then(() => addUnderLimit(tx, 'bob')),
    );
    try {
      // Another key does not wait for bob's turn.
      expect(
        await inTurn(db.em().fork(), 'items-of:cy', async (tx) => (await addUnderLimit(tx, 'cy')).length),
      ).toBe(1);
    } catch (err) {
      release();
      throw err;
    }
    // The same key does, until bob's turn ends.
    let second = false;
    const queued = inTurn(db.em().fork(), 'items-of:bob', async (tx) => {
      second = true;
      return addUnderLimit(tx, 'bob');
    });
    await new Promise((r) => setTimeout(r, 200));
    const waited = !second;
    release();
    await Promise.all([held, queued]);
    expect(waited).toBe(true);
    expect(second).toBe(true);
  });

  it('lets the lock go with a transaction that fails', async () => {
    await expect(
      inTurn(db.em().fork(), 'items-of:dee', async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(
      await inTurn(db.em().fork(), 'items-of:dee', async (tx) => (await addUnderLimit(tx, 'dee')).length),
    ).toBe(1);
  });
});
