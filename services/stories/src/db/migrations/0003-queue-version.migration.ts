import { Migration } from '@pp/db';

/** The queue version counts the changes committed, so a commit knows the stories are those it planned on. */
export class QueueVersionMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table sessions add column queue_version integer not null default 0');
  }

  override async down(): Promise<void> {
    this.addSql('alter table sessions drop column queue_version');
  }
}
