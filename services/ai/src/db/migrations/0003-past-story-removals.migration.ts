import { Migration } from '@pp/db';

/**
 * When a kept story was reset or deleted: a reveal that happened before (its event handled late, after
 * the reset's) must not bring it back. Removals older than the event stream's retention are forgotten.
 */
export class PastStoryRemovalsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table past_story_removals (
      story_id uuid primary key,
      removed_at timestamptz not null
    )`);
    this.addSql('create index past_story_removals_removed_at_idx on past_story_removals (removed_at)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists past_story_removals');
  }
}
