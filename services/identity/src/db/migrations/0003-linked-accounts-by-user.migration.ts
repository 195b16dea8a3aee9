import { Migration } from '@pp/db';

/**
 * A sign-on that claims an account whose address was never verified unlinks every provider identity
 * of that user: found by the user, which no index covered (a read of every linked account).
 */
export class LinkedAccountsByUserMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index linked_accounts_user_idx on linked_accounts (user_id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop index linked_accounts_user_idx');
  }
}
