/**
 * Unlinking a user's provider identities (a sign-on claiming an account whose address was never
 * verified) reads that user's links only, among many users' links.
 */
import { randomUUID } from 'node:crypto';
import { createDatabase, runStatement } from '@pp/db';
import { createLogger } from '@pp/logger';
import { createTestDatabase, tableReads, type TestDatabase } from '@pp/testing';
import { migrations } from '../src/db/migrations/index.ts';

const logger = createLogger({ name: 'linked-accounts-test', level: 'silent' });

describe('a user’s linked accounts', () => {
  let db: TestDatabase;
  const user = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase('identity-links');
    await (await createDatabase({ url: db.url, entities: [], migrations, logger })).close();
    await runStatement(
      db.url,
      `with made as (
         insert into users (id, email, name, created_at, updated_at)
         select case when n = 0 then $1::uuid else gen_random_uuid() end, 'u' || n || '@example.test', 'U', now(), now()
           from generate_series(0, 10000) n
         returning id)
       insert into linked_accounts (id, user_id, provider, subject, created_at)
       select gen_random_uuid(), id, p, id::text || p, now() from made, unnest(array['github', 'google']) p`,
      [user],
    );
  });
  afterAll(() => db.drop());

  it('are unlinked through the index of their user', async () => {
    // The statement MikroORM sends for unlinkAccounts (a delete by user).
    const { rowCount, reads } = await tableReads(
      db.url,
      { text: 'delete from "linked_accounts" where "user_id" = $1', values: [user] },
      ['linked_accounts'],
    );
    expect(rowCount).toBe(2);
    expect(reads.linked_accounts).toEqual({ seqScans: 0, indexScans: 1, rowsRead: 2 });
  });
});
