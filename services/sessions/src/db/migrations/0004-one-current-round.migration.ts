import { Migration } from '@pp/db';

/**
 * One current round per session, checked when a statement ends rather than at each row, so that one
 * statement can move the current round from a story to another (demote the old, promote the new).
 */
export class OneCurrentRoundMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop index if exists rounds_current_unique');
    this.addSql(`alter table rounds add constraint rounds_one_current
      exclude using btree (session_id with =) where (status = 'voting') deferrable initially deferred`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table rounds drop constraint if exists rounds_one_current');
    this.addSql(`create unique index rounds_current_unique on rounds (session_id) where status = 'voting'`);
  }
}
