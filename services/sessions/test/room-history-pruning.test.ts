/**
 * The room's history is pruned every ten minutes of what is over a day old: through the index of its
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
import { migrations } from '../src/db/migrations/index.ts';
import { PRUNE_ROOM_EVENTS_SQL } from '../src/db/room-event.repository.ts';

const OLD = 2_000;

describe('the room history’s pruning', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('sessions-room-pruning');
    const logger = createLogger({ name: 'room-history-pruning-test', level: 'silent' });
    await (await createDatabase({ url: db.url, entities: [], migrations, logger })).close();
    // Each event with its place in the bus's order.
    await dayOfRows(db.url, {
      old: OLD,
      today: 60_000,
      brinIndex: 'room_events_occurred_brin',
      insert: (sql, count, since) =>
        sql(
          `with made as (
             insert into room_events (event_id, session_id, type, payload, occurred_at)
             select gen_random_uuid(), gen_random_uuid(), 'vote.cast', ${EVENT_SIZED_JSON},
                    ${since} + k * interval '1 millisecond'
               from generate_series(1, $1) k returning event_id, session_id)
           insert into room_positions (event_id, session_id, position) select event_id, session_id, 1 from made`,
          [count],
        ),
    });
  });
  afterAll(() => db.drop());

  it('reads the events over a day old and their places, not the day’s', async () => {
    const cutoff = new Date(Date.now() - 24 * 3600_000);
    const { rows, reads } = await tableReads(
      db.url,
      { text: PRUNE_ROOM_EVENTS_SQL, values: [cutoff] },
      ['room_events', 'room_positions'],
      { settings: [NO_TABLE_SCANS] },
    );
    expect(rows[0]).toEqual({ n: OLD });
    // The old events, and the rest of the index's ranges that hold them (a few thousand rows).
    expect(readsBeyond(reads, 8_000)).toEqual([]);
  });
});
