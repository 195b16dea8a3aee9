import { Migration } from '@pp/db';
import { ROUND_STATS_QUERY } from './0014-vote-counts-as-published.migration.ts';

/** `round_stats` as this migration makes it (0018 replaces it; its down() brings this back). */
export const ROUND_STATS_0015 = `create or replace function round_stats(story uuid, session uuid) returns jsonb
      language plpgsql stable as $$
      begin
        return (
${ROUND_STATS_QUERY});
      end $$`;

/**
 * `round_stats` counts the same, as a PL/pgSQL function: it plans its query once per connection and
 * reuses the plan, where the SQL function planned its body again on every call (a function with a
 * FROM is not inlined). Every vote that does not complete its round counts after its commit, the
 * relay counts the rounds of the votes it publishes, and a room read and a seal count: each paid
 * that planning, several times the count itself. Stable, as before: it reads with its caller's
 * snapshot.
 */
export class RoundStatsPlannedOnceMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(ROUND_STATS_0015);
  }

  override async down(): Promise<void> {
    this.addSql(`create or replace function round_stats(story uuid, session uuid) returns jsonb
      language sql stable as $$
${ROUND_STATS_QUERY}
      $$`);
  }
}
