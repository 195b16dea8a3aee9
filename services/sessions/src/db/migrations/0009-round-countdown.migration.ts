import { Migration } from '@pp/db';

/**
 * A round's countdown: when it reaches zero, and what happens then (`reveal` or `close` to votes).
 * Kept on the round, so that whatever ends the round (a reveal, a re-vote, another story made current,
 * a deletion) ends its countdown in the same statement.
 */
export class RoundCountdownMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table rounds add column countdown_ends_at timestamptz, add column countdown_at_zero text,
         add column countdown_seconds int`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      'alter table rounds drop column countdown_ends_at, drop column countdown_at_zero, drop column countdown_seconds',
    );
  }
}
