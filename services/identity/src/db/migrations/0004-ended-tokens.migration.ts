import { IndexBuildMigration } from '@pp/db';

/**
 * Tokens that ended (expired, or revoked) are forgotten a while later: the sweep finds the longest
 * ended through the moment each ended, never by reading every token. Built concurrently: the table
 * held a row for every sign-in ever made.
 */
export class EndedTokensMigration extends IndexBuildMigration {
  override async up(): Promise<void> {
    this.buildIndex(
      'tokens_ended_idx',
      `on tokens ((least(revoked_at, expires_at))) where revoked_at is not null or expires_at is not null`,
    );
  }

  override async down(): Promise<void> {
    this.dropIndex('tokens_ended_idx');
  }
}
