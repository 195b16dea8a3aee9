import { createLogger } from '@pp/logger';
import { createTestDatabase, type TestDatabase } from '@pp/testing';
import { createDatabase, Migration, type Database } from '../src/index.ts';

const logger = createLogger({ name: 'db-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

class CreateItems extends Migration {
  override async up(): Promise<void> {
    this.addSql('create table items (id serial primary key, name text not null)');
  }
}

/**
 * Replicas of a unit start at once on a new database (two processes of every unit under
 * `npm start -- --replicas 2`, a Deployment's pods): each migrates it at start, and none may fail
 * because another is creating the same tables at that moment.
 */
describe('migrations of replicas starting at once', () => {
  let testDb: TestDatabase;
  const opened: Database[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase('concurrent_migrations');
  });
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
    await testDb.drop();
  });

  it('lets four processes migrate one new database together, each migration applied once', async () => {
    const migrations = [{ name: 'Migration20260101000000', class: CreateItems }];
    const started = await Promise.allSettled(
      Array.from({ length: 4 }, () => createDatabase({ url: testDb.url, entities: [], migrations, logger })),
    );
    for (const s of started) if (s.status === 'fulfilled') opened.push(s.value);
    expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'started'))).toEqual(
      Array(4).fill('started'),
    );
    const applied = await opened[0]!.em().getConnection().execute('select name from mikro_orm_migrations');
    expect(applied).toEqual([{ name: 'Migration20260101000000' }]);
  });
});
