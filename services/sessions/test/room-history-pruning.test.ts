/**
 * The room's history is pruned every ten minutes of what is over a day old: through the index of its
 * time, whatever the planner would make of the table without statistics, never a read of the day's
 * rows that stay.
 */
import { EVENT_SIZED_JSON, pruningReads, readsBeyond } from '@pp/testing';
import { migrations } from '../src/db/migrations/index.ts';
import { PRUNE_ROOM_EVENTS_SQL } from '../src/db/room-event.repository.ts';

describe('the room history’s pruning', () => {
  it('reads the events over a day old and their places, not the day’s', async () => {
    const { rows, reads } = await pruningReads({
      unit: 'sessions-room-pruning',
      migrations,
      old: 2_000,
      brinIndex: 'room_events_occurred_brin',
      // Each event with its place in the bus's order.
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
      statement: PRUNE_ROOM_EVENTS_SQL,
      tables: ['room_events', 'room_positions'],
    });
    expect(rows[0]).toEqual({ n: 2_000 });
    // The old events, and the rest of the index's ranges that hold them (a few thousand rows).
    expect(readsBeyond(reads, 8_000)).toEqual([]);
  });
});
