import { Migration } from '@pp/db';

/** `round_votes` as this migration makes it (0017 replaces it; its down() brings this back). */
export const ROUND_VOTES_0013 = `create or replace function round_votes(story uuid) returns jsonb
      language plpgsql volatile as $$
      begin
        return (
          select coalesce(jsonb_agg(jsonb_build_object('participant', jsonb_build_object('id', p.id, 'name', p.name),
                                                       'value', v.value)
                                    order by v.created_at, v.id), '[]'::jsonb)
            from votes v join participants p on p.id = v.participant_id
           where v.story_id = story);
      end $$`;

/**
 * The votes of a round with their voters, as a seal hands them over, from a function: called by the
 * round command's statement once the seal holds the round's lock, it reads with a snapshot of its
 * own (PL/pgSQL, volatile), taken after the votes in flight on the round committed, where a read in
 * the statement itself would see the votes as they were when the statement began, before it waited.
 * So a user's reveal seals and reads its votes in one statement, one round trip. The other seals (in
 * a transaction, or a retried one) read them with the same function.
 */
export class SealedVotesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(ROUND_VOTES_0013);
  }

  override async down(): Promise<void> {
    this.addSql('drop function if exists round_votes(uuid)');
  }
}
