import { Migration } from '@pp/db';
import {
  CLAIM_INTO_GOT,
  RECOUNT_CTE,
  SESSIONS_OUTBOX_CLAIM_0014,
} from './0014-vote-counts-as-published.migration.ts';

/**
 * `sessions_outbox_claim` counts each round once per claim, and records the new counts in the room by
 * each record's key. Two plans made it cost most of what a round's vote cost the database (20-100 ms a
 * claim of a few dozen vote.cast, on a table of some tens of thousands of room records):
 * - the counts of the claimed rounds, a CTE referenced once, were inlined into the join that gives
 *   each claimed event its count, and counted again for every event of the round (a nested loop);
 *   materialized, they are counted once per round;
 * - the room's records were updated in one statement joined to the claimed events, and PL/pgSQL keeps
 *   the plan it makes on a connection's first calls: made while `room_events` was small, that plan read
 *   the whole table (a hash join on a sequential scan). A statement that names one record by its key
 *   is planned as a look-up of that key, whatever the table's size when it is planned.
 *
 * Otherwise the claim is the same (migration 0014): the counts come in a statement after the claim's,
 * for the claimed vote.cast that did not count everyone, and the events go out with them.
 */
export class ClaimCountsEachRoundOnceMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function sessions_outbox_claim(batch int) returns setof claimed_event
      language plpgsql as $$
      declare
        got claimed_event[];
        recounted jsonb[];
        i int;
      begin
${CLAIM_INTO_GOT}
        -- the new counts of the claimed events, by position (null: sent as written)
        with claimed as (select * from unnest(got) with ordinality as c),
             ${RECOUNT_CTE}
             -- materialized: referenced once, it would be inlined into the join below and counted
             -- again for every claimed event of its round
             counts as materialized (
               select r.story_id, round_stats(r.story_id, r.session_id) as stats
                 from (select distinct session_id, story_id from recount) r)
        select coalesce(array_agg(k.stats order by c.ordinality), '{}')
          into recounted
          from claimed c left join recount r on r.n = c.ordinality left join counts k on k.story_id = r.story_id;
        -- the room's record of each whose count changed, by its key
        for i in 1 .. coalesce(array_length(got, 1), 0) loop
          if recounted[i] is not null then
            update room_events set payload = jsonb_set(payload, '{stats}', recounted[i])
             where event_id = (got[i]).id and payload->'stats' is distinct from recounted[i];
          end if;
        end loop;
        return query
          select g.id, g.type,
                 case when recounted[g.n] is null then g.payload
                      else jsonb_set(g.payload, '{data,stats}', recounted[g.n]) end,
                 g.created_at, g.seq, g.attempts, g.traceparent
            from unnest(got) with ordinality as g(id, type, payload, created_at, seq, attempts, traceparent, n)
           order by g.n;
      end $$`);
  }

  override async down(): Promise<void> {
    this.addSql(SESSIONS_OUTBOX_CLAIM_0014);
  }
}
