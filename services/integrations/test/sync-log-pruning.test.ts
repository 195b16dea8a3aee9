/**
 * The sync log keeps 90 days: older logs go an hourly batch at a time, found through their age among
 * tens of thousands of newer ones, never by reading the table whole.
 */
import { createDatabase, withOwnConnection, type Database } from '@pp/db';
import { createLogger } from '@pp/logger';
import { createTestDatabase, readsBeyond, tableReads, type TestDatabase } from '@pp/testing';
import { PRUNE_SYNC_LOGS_SQL } from '../src/db/sync-log.repository.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { forgetOldSyncLogs, SYNC_LOG_DAYS } from '../src/use-cases/forget-old-sync-logs.use-case.ts';

const logger = createLogger({ name: 'sync-log-pruning-test', level: 'silent' });
const DAY = 86_400_000;
const NOW = new Date('2026-12-01T12:00:00Z');
const OLD = 1_500;
const OTHERS = 100_000;

describe('the sync log’s pruning', () => {
  let test: TestDatabase;
  let db: Database;

  const sql = (text: string, values: unknown[] = []) =>
    withOwnConnection(test.url, async (client) => (await client.query(text, values)).rows);
  /** `count` logs of `owner`, one a second back from `newest`. */
  const logs = (owner: string, count: number, newest: Date) =>
    sql(
      `insert into sync_logs (owner_id, session_id, session_code, provider, status, trigger, created_at)
       select $1, gen_random_uuid(), 'ABC123', 'github', 'synced', 'auto', $3::timestamptz - k * interval '1 second'
         from generate_series(0, $2 - 1) k`,
      [owner, count, newest],
    );
  const countOf = async (owner: string) =>
    (await sql('select count(*)::int as n from sync_logs where owner_id = $1', [owner]))[0]!.n as number;

  beforeAll(async () => {
    test = await createTestDatabase('integrations-sync-logs');
    db = await createDatabase({ url: test.url, entities: [], migrations, logger });
    await logs('ann', OLD, new Date(NOW.getTime() - (SYNC_LOG_DAYS + 10) * DAY));
    // Ann's last log before the cutoff stays: a day short of it.
    await logs('ann', 3, new Date(NOW.getTime() - (SYNC_LOG_DAYS - 1) * DAY));
    await logs('others', OTHERS, NOW);
  });
  afterAll(async () => {
    await db.close();
    await test.drop();
  });

  it('takes a batch of the oldest through their age, not the whole table', async () => {
    const cutoff = new Date(NOW.getTime() - SYNC_LOG_DAYS * DAY);
    const { rowCount, reads } = await tableReads(
      test.url,
      { text: PRUNE_SYNC_LOGS_SQL, values: [1_000, cutoff] },
      ['sync_logs'],
    );
    expect(rowCount).toBe(1_000);
    // The batch's rows, once through the index of their age and once more by key to delete them.
    expect(readsBeyond(reads, 2_100)).toEqual([]);
  });

  it('forgets every log older than 90 days and keeps the newer ones', async () => {
    const pruned = await forgetOldSyncLogs({ em: db.fork(), now: () => NOW }, () => false);
    expect(pruned).toBe(OLD);
    expect(await countOf('ann')).toBe(3);
    expect(await countOf('others')).toBe(OTHERS);
    expect(await forgetOldSyncLogs({ em: db.fork(), now: () => NOW }, () => false)).toBe(0);
  });

  it('ends between batches once asked to stop', async () => {
    await logs('bob', 2_500, new Date(NOW.getTime() - (SYNC_LOG_DAYS + 1) * DAY));
    expect(await forgetOldSyncLogs({ em: db.fork(), now: () => NOW }, () => true)).toBe(1_000);
    expect(await countOf('bob')).toBe(1_500);
  });
});
