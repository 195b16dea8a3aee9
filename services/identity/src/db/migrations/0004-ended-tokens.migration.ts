import { Migration } from '@pp/db';

/**
 * Tokens that ended (expired, or revoked) are forgotten a while later: the sweep finds the longest
 * ended through the moment each ended, never by reading every token.
 */
export class EndedTokensMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index tokens_ended_idx on tokens ((least(revoked_at, expires_at)))
        where revoked_at is not null or expires_at is not null`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index tokens_ended_idx');
  }
}
