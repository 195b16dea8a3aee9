import { Migration } from '@pp/db';

/**
 * A round opened by a change of the stories that the stories unit may not have committed yet: the
 * version of that round command, until the stories unit shows the story as its current one (null: the
 * round is known to be the stories unit's too). Rounds there before were all stated by committed
 * changes.
 */
export class RoundConfirmationMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table rounds add column unconfirmed_version int');
  }

  override async down(): Promise<void> {
    this.addSql('alter table rounds drop column unconfirmed_version');
  }
}
