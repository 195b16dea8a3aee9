import { Migration } from '@pp/db';

/**
 * An OAuth connection's state is bound to the browser that started it: the hash of a nonce that browser
 * keeps in a cookie. Flows in progress go: started without the cookie, none of them could finish.
 */
export class OAuthBrowserMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('delete from oauth_states');
    this.addSql('alter table oauth_states add column browser_hash char(64) not null');
  }

  override async down(): Promise<void> {
    this.addSql('alter table oauth_states drop column browser_hash');
  }
}
