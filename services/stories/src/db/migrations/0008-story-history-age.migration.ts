import { Migration } from '@pp/db';

/**
 * Every story change writes its events to the history, on the change's path; their age is read only by
 * the pruning, every ten minutes. A BRIN index serves it, which the rows appended since its last
 * summary do not touch (they come in about the order of their time), instead of a B-tree entry per
 * event.
 */
export class StoryHistoryAgeMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop index story_history_age_idx');
    this.addSql('create index story_history_age_brin on story_history using brin (occurred_at)');
  }

  override async down(): Promise<void> {
    this.addSql('drop index story_history_age_brin');
    this.addSql('create index story_history_age_idx on story_history (occurred_at)');
  }
}
