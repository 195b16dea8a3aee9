import { Migration } from '@pp/db';

/** Sync logs are kept 90 days: the pruning finds the oldest through their age, never the whole table. */
export class SyncLogAgeMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index sync_logs_created_idx on sync_logs (created_at)');
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists sync_logs_created_idx');
  }
}
