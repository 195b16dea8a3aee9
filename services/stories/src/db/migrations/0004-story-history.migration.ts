import { Migration } from '@pp/db';

/**
 * The events of each session's recent story changes, written with the change itself: what the session's
 * activity shows at once, before the events have reached the sessions unit. Kept a day.
 */
export class StoryHistoryMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table story_history (
      event_id uuid primary key,
      session_id uuid not null,
      occurred_at timestamptz not null,
      envelope jsonb not null
    )`);
    this.addSql('create index story_history_session_idx on story_history (session_id, occurred_at desc)');
    this.addSql('create index story_history_age_idx on story_history (occurred_at)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists story_history');
  }
}
