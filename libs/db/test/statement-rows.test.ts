import { createLogger } from '@pp/logger';
import { createTestDatabase, type TestDatabase } from '@pp/testing';
import { createDatabase, plannedRows, statementRows, type Database } from '../src/index.ts';

const logger = createLogger({ name: 'db-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/**
 * A statement run on its own (prepared, or planned each time) and inside a transaction (a plain query)
 * answers the same.
 */
describe('statementRows and plannedRows', () => {
  let testDb: TestDatabase;
  let db: Database;
  const statement = {
    name: 'db-test.pairs',
    // $1 twice and out of order: each placeholder is bound to its own value either way
    text: `select $2::text as label, n from generate_series(1, $1::int) n where n <> $1::int order by n`,
  };

  beforeAll(async () => {
    testDb = await createTestDatabase('statement_rows');
    db = await createDatabase({ url: testDb.url, entities: [], migrations: [], logger });
  });
  afterAll(async () => {
    await db.close();
    await testDb.drop();
  });

  it('binds the same values on its own and in a transaction, and prepares only on its own', async () => {
    const alone = await statementRows(db.em(), statement, [3, "it's"]);
    const inside = await db.em().transactional(async (tx) => {
      const found = await statementRows(tx, statement, [3, "it's"]);
      // Written in the transaction, read by the statement in it: it ran on the transaction's connection.
      await tx
        .getConnection()
        .execute(
          'create temporary table marker (n int) on commit drop',
          [],
          'run',
          tx.getTransactionContext(),
        );
      const seen = await statementRows<{ n: number }>(
        tx,
        { name: 'db-test.marker', text: 'select count(*)::int as n from marker where $1::int = 1' },
        [1],
      );
      return { found, seen };
    });
    expect(alone).toEqual([
      { label: "it's", n: 1 },
      { label: "it's", n: 2 },
    ]);
    expect(inside.found).toEqual(alone);
    expect(inside.seen).toEqual([{ n: 0 }]);
    const prepared = await db
      .em()
      .getConnection()
      .execute<Array<{ name: string }>>('select name from pg_prepared_statements');
    // The pool's other connections may hold it too; the transaction's plain query prepared nothing.
    expect(prepared.map((p) => p.name)).not.toContain('db-test.marker');
  });

  it('plans a poll’s statement on each run: the same values bound on its own and in a transaction, nothing prepared', async () => {
    const alone = await plannedRows(db.em(), statement.text, [3, 'due']);
    const inside = await db.em().transactional((tx) => plannedRows(tx, statement.text, [3, 'due']));
    expect(alone).toEqual([
      { label: 'due', n: 1 },
      { label: 'due', n: 2 },
    ]);
    expect(inside).toEqual(alone);
    const prepared = await db
      .em()
      .getConnection()
      .execute<Array<{ name: string }>>('select name from pg_prepared_statements');
    // Only the named statements of the test above are kept: plannedRows names none.
    expect(prepared.map((p) => p.name).filter((name) => !name.startsWith('db-test.'))).toEqual([]);
  });
});
