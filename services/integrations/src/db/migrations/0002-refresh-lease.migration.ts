import { Migration } from '@pp/db';

/** An OAuth connection's refresh lease: who refreshes its token now, and until when at the latest. */
export class RefreshLeaseMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table connections add column refresh_lease uuid null, add column refresh_lease_until timestamptz null',
    );
  }

  override async down(): Promise<void> {
    this.addSql('alter table connections drop column refresh_lease, drop column refresh_lease_until');
  }
}
