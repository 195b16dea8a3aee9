import { Migration } from '@pp/db';

/**
 * When the sessions unit was last asked to archive the session (its clock, the time the archive is
 * stamped with): from then until the session is seen unarchived after it, every change of the stories
 * asks the sessions unit, which refuses it once the archive is committed. Null: never, or undone.
 */
export class ArchivingMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table sessions add column archiving_since timestamptz');
  }

  override async down(): Promise<void> {
    this.addSql('alter table sessions drop column archiving_since');
  }
}
