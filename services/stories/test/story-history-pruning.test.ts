/**
 * The story history is pruned every ten minutes of what is over a day old: through the index of its
 * time, whatever the planner would make of the table without statistics, never a read of the day's
 * rows that stay.
 */
import { createDatabase, NO_TABLE_SCANS } from '@pp/db';
import { createLogger } from '@pp/logger';
import {
  createTestDatabase,
  dayOfRows,
  EVENT_SIZED_JSON,
  readsBeyond,
  tableReads,
  type TestDatabase,
} from '@pp/testing';
import { FORGET_STORY_HISTORY_SQL } from '../src/db/history.repository.ts';
import { migrations } from '../src/db/migrations/index.ts';

const OLD = 2_000;

describe('the story history’s pruning', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('stories-history-pruning');
    const logger = createLogger({ name: 'story-history-pruning-test', level: 'silent' });
    await (await createDatabase({ url: db.url, entities: [], migrations, logger })).close();
    await dayOfRows(db.url, {
      old: OLD,
      today: 60_000,
      brinIndex: 'story_history_age_brin',
      insert: (sql, count, since) =>
        sql(
          `insert into story_history (event_id, session_id, occurred_at, envelope)
           select gen_random_uuid(), gen_random_uuid(), ${since} + k * interval '1 millisecond', ${EVENT_SIZED_JSON}
             from generate_series(1, $1) k`,
          [count],
        ),
    });
  });
  afterAll(() => db.drop());

  it('reads the events over a day old, not the day’s', async () => {
    const cutoff = new Date(Date.now() - 24 * 3600_000);
    const { rowCount, reads } = await tableReads(
      db.url,
      { text: FORGET_STORY_HISTORY_SQL, values: [cutoff] },
      ['story_history'],
      { settings: [NO_TABLE_SCANS] },
    );
    expect(rowCount).toBe(OLD);
    // The old events, and the rest of the index's ranges that hold them (a few thousand rows).
    expect(readsBeyond(reads, 8_000)).toEqual([]);
  });
});
