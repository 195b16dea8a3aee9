/**
 * The story history is pruned every ten minutes of what is over a day old: through the index of its
 * time, whatever the planner would make of the table without statistics, never a read of the day's
 * rows that stay.
 */
import { createDatabase, NO_TABLE_SCANS, withOwnConnection } from '@pp/db';
import { createLogger } from '@pp/logger';
import { createTestDatabase, readsBeyond, tableReads, type TestDatabase } from '@pp/testing';
import { FORGET_STORY_HISTORY_SQL } from '../src/db/history.repository.ts';
import { migrations } from '../src/db/migrations/index.ts';

const logger = createLogger({ name: 'story-history-pruning-test', level: 'silent' });
const OLD = 2_000;
const TODAY = 60_000;
/** An event as big as a story change's (about 400 bytes): a range of the index holds a couple of thousand. */
const ENVELOPE = `jsonb_build_object('title', repeat('x', 400))`;

describe('the story history’s pruning', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('stories-history-pruning');
    await (await createDatabase({ url: db.url, entities: [], migrations, logger })).close();
    await withOwnConnection(db.url, async (client) => {
      /** `count` events from `since` on, a millisecond apart. */
      const events = (count: number, since: string) =>
        client.query(
          `insert into story_history (event_id, session_id, occurred_at, envelope)
           select gen_random_uuid(), gen_random_uuid(), ${since} + k * interval '1 millisecond', ${ENVELOPE}
             from generate_series(1, $1) k`,
          [count],
        );
      await events(OLD, "now() - interval '25 hours'");
      await events(TODAY, "now() - interval '20 hours'");
      // A vacuum after each pruning summarizes the index; what came since is read as it stands.
      await client.query(`select brin_summarize_new_values('story_history_age_brin')`);
      await events(100, 'now()');
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
