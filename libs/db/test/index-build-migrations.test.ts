import { createLogger } from '@pp/logger';
import { createTestDatabase, type TestDatabase } from '@pp/testing';
import { createDatabase, IndexBuildMigration, Migration, withOwnConnection } from '../src/index.ts';

const logger = createLogger({ name: 'db-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

class CreateItems extends Migration {
  override async up(): Promise<void> {
    this.addSql('create table items (id serial primary key, name text not null)');
    this.addSql(`insert into items (name) select 'item' from generate_series(1, 1000)`);
  }
}

class ItemsByName extends IndexBuildMigration {
  override async up(): Promise<void> {
    this.buildIndex('items_name_idx', 'on items (name)');
  }
}

/**
 * An index on a table that may be large is built concurrently, so the table takes writes meanwhile:
 * outside a transaction (`create index concurrently` refuses to run in one, and a transaction held
 * across the migrations would make it wait for ever), and again whole after a build interrupted.
 */
describe('migrations that build an index concurrently', () => {
  let testDb: TestDatabase;
  const sql = (text: string) => withOwnConnection(testDb.url, async (c) => (await c.query(text)).rows);
  const migrations = [
    { name: '0001-items', class: CreateItems },
    { name: '0002-items-by-name', class: ItemsByName },
  ];
  const indexes = () =>
    sql(`select c.relname as name, i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
          where i.indrelid = 'items'::regclass and not i.indisprimary`);

  beforeEach(async () => {
    testDb = await createTestDatabase('index_build_migrations');
  });
  afterEach(() => testDb.drop());

  it('runs after the migrations before it, outside a transaction, and logs itself applied', async () => {
    const db = await createDatabase({ url: testDb.url, entities: [], migrations, logger });
    await db.close();
    expect(await indexes()).toEqual([{ name: 'items_name_idx', valid: true }]);
    expect(await sql('select name from mikro_orm_migrations order by id')).toEqual([
      { name: '0001-items' },
      { name: '0002-items-by-name' },
    ]);
  });

  it('builds again an index that an interrupted build left invalid', async () => {
    await (
      await createDatabase({ url: testDb.url, entities: [], migrations: migrations.slice(0, 1), logger })
    ).close();
    // A concurrent build that fails (a unique index on equal names) leaves its index behind, invalid.
    await expect(sql('create unique index concurrently items_name_idx on items (name)')).rejects.toThrow(
      /could not create unique index/,
    );
    expect(await indexes()).toEqual([{ name: 'items_name_idx', valid: false }]);
    await (await createDatabase({ url: testDb.url, entities: [], migrations, logger })).close();
    expect(await indexes()).toEqual([{ name: 'items_name_idx', valid: true }]);
  });
});
