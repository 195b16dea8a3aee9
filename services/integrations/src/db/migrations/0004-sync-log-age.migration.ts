import { IndexBuildMigration } from '@pp/db';

/**
 * Sync logs are kept 90 days: the pruning finds the oldest through their age, never the whole table.
 * Built concurrently: the log was never pruned before.
 */
export class SyncLogAgeMigration extends IndexBuildMigration {
  override async up(): Promise<void> {
    this.buildIndex('sync_logs_created_idx', 'on sync_logs (created_at)');
  }

  override async down(): Promise<void> {
    this.dropIndex('sync_logs_created_idx');
  }
}
