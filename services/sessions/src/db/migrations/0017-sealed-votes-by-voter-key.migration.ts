import { Migration } from '@pp/db';
import { ROUND_VOTES_0013 } from './0013-sealed-votes.migration.ts';

/**
 * `round_votes` looks each voter up by key. It joined the round's votes to `participants`, and
 * PL/pgSQL keeps the plan it makes on a connection's first calls: made while `participants` was small,
 * that plan read the whole table on every seal (a hash join on a sequential scan; on a system with a
 * few thousand participants, some two thousand rows read per reveal). A voter's name looked up by the
 * voter's key, vote by vote, is a look-up of that key whatever the table's size when it is planned: a
 * seal reads as many participants as its round has votes. (A vote goes with its voter: deleting a
 * participant deletes its votes.)
 */
export class SealedVotesByVoterKeyMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function round_votes(story uuid) returns jsonb
      language plpgsql volatile as $$
      begin
        return (
          select coalesce(jsonb_agg(jsonb_build_object(
                   'participant', jsonb_build_object(
                     'id', v.participant_id,
                     'name', (select p.name from participants p where p.id = v.participant_id)),
                   'value', v.value)
                 order by v.created_at, v.id), '[]'::jsonb)
            from votes v
           where v.story_id = story);
      end $$`);
  }

  override async down(): Promise<void> {
    this.addSql(ROUND_VOTES_0013);
  }
}
