import { Migration } from '@pp/db';

/** The counts of round `story` of session `session` (the body of `round_stats`). */
export const ROUND_STATS_QUERY = `        select jsonb_build_object('votes_cast', k.cast_n, 'total_participants', k.total,
                                  'all_voted', k.total > 0 and k.cast_n >= k.total)
          from (select (select count(*)::int from votes v
                         where v.story_id = story
                           and (select p.role <> 'observer' and p.removed_at is null
                                  from participants p where p.id = v.participant_id)) as cast_n,
                       (select count(*)::int from participants p
                         where p.session_id = session and p.role <> 'observer' and p.removed_at is null) as total) k`;

/**
 * The claim of `outbox_claim` into `got` (claimed_event[]), in the claim's order: the first statement of
 * `sessions_outbox_claim` (here and in migration 0016).
 */
export const CLAIM_INTO_GOT = `        select coalesce(array_agg(row(c.id, c.type, c.payload, c.created_at, c.seq, c.attempts,
                                      c.traceparent)::claimed_event order by c.n), '{}')
          into got
          from outbox_claim(batch) with ordinality as c(id, type, payload, created_at, seq, attempts, traceparent, n);`;

/**
 * Which claimed events (CTE `claimed`) are counted again, by position: the vote.cast that did not count
 * everyone (a vote that counted everyone counted right: one cast at the same moment adds nothing).
 */
export const RECOUNT_CTE = `recount as (
                 select c.ordinality as n, (c.payload->'data'->>'session_id')::uuid as session_id,
                        (c.payload->'data'->>'story_id')::uuid as story_id
                   from claimed c
                  where c.type = 'vote.cast' and (c.payload->'data'->'stats'->>'all_voted') is distinct from 'true'),`;

/** `sessions_outbox_claim` as this migration makes it (0016 replaces it; its down() brings this back). */
export const SESSIONS_OUTBOX_CLAIM_0014 = `create or replace function sessions_outbox_claim(batch int) returns setof claimed_event
      language plpgsql as $$
      declare
        got claimed_event[];
      begin
${CLAIM_INTO_GOT}
        return query
          with claimed as (select * from unnest(got) with ordinality as c),
               ${RECOUNT_CTE}
               counts as (
                 select r.story_id, round_stats(r.story_id, r.session_id) as stats
                   from (select distinct session_id, story_id from recount) r),
               sent as (
                 select c.*, k.stats
                   from claimed c left join recount r on r.n = c.ordinality
                        left join counts k on k.story_id = r.story_id),
               recorded as (
                 update room_events e set payload = jsonb_set(e.payload, '{stats}', s.stats)
                   from sent s
                  where s.stats is not null and e.event_id = s.id and e.payload->'stats' is distinct from s.stats)
          select s.id, s.type,
                 case when s.stats is null then s.payload else jsonb_set(s.payload, '{data,stats}', s.stats) end,
                 s.created_at, s.seq, s.attempts, s.traceparent
            from sent s order by s.ordinality;
      end $$`;

/**
 * The outbox relay of this unit claims its batches with `sessions_outbox_claim`: the claim of every
 * unit's outbox (`outbox_claim`), with each vote.cast's stats counted again as it leaves. A vote's
 * statement counts the votes committed when it began, so two votes cast at the same moment each miss
 * the other's, and both events said "1 of 2 voted" when both had voted. Counted at the claim, after
 * the vote's commit, the events the room gets last count every vote committed before them. The room's
 * record of a vote whose count changed takes the new count too (what a reconnecting client replays).
 * A vote that counted everyone is not counted again: a vote cast at the same moment cannot add to it,
 * so a round of re-votes costs the claim nothing more.
 *
 * The counts come in a statement after the claim's: a statement reads what was committed when it
 * began, and the claim (a function) reads with a snapshot taken after its caller's, so a count made
 * in the claiming statement could miss the votes of the events it claimed.
 */
export class VoteCountsAsPublishedMigration extends Migration {
  override async up(): Promise<void> {
    // A round's counts: its counted voters' votes and its counted participants (observers and those
    // who left count for neither). The unit's own reads of the counts call it too.
    this.addSql(`create or replace function round_stats(story uuid, session uuid) returns jsonb
      language sql stable as $$
${ROUND_STATS_QUERY}
      $$`);
    this.addSql(`create type claimed_event as (id uuid, type varchar, payload jsonb, created_at text,
                                               seq bigint, attempts int, traceparent text)`);
    this.addSql(SESSIONS_OUTBOX_CLAIM_0014);
  }

  override async down(): Promise<void> {
    this.addSql('drop function if exists sessions_outbox_claim(int)');
    this.addSql('drop type if exists claimed_event');
    this.addSql('drop function if exists round_stats(uuid, uuid)');
  }
}
