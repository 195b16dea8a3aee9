/**
 * The story history is pruned every ten minutes of what is over a day old: through the index of its
 * time, whatever the planner would make of the table without statistics, never a read of the day's
 * rows that stay.
 */
import { EVENT_SIZED_JSON, pruningReads, readsBeyond } from '@pp/testing';
import { FORGET_STORY_HISTORY_SQL } from '../src/db/history.repository.ts';
import { migrations } from '../src/db/migrations/index.ts';

describe('the story history’s pruning', () => {
  it('reads the events over a day old, not the day’s', async () => {
    const { rowCount, reads } = await pruningReads({
      unit: 'stories-history-pruning',
      migrations,
      old: 2_000,
      brinIndex: 'story_history_age_brin',
      insert: (sql, count, since) =>
        sql(
          `insert into story_history (event_id, session_id, occurred_at, envelope)
           select gen_random_uuid(), gen_random_uuid(), ${since} + k * interval '1 millisecond', ${EVENT_SIZED_JSON}
             from generate_series(1, $1) k`,
          [count],
        ),
      statement: FORGET_STORY_HISTORY_SQL,
      tables: ['story_history'],
    });
    expect(rowCount).toBe(2_000);
    // The old events, and the rest of the index's ranges that hold them (a few thousand rows).
    expect(readsBeyond(reads, 8_000)).toEqual([]);
  });
});
