import { Migration } from '@pp/db';

/**
 * Whether a participant has voted with its participant token: from then on a vote for it without the
 * token is refused, so that someone who reads the participant ids in the room cannot vote in its
 * place. Participants kept before start without it (they may still vote without their token).
 */
export class VotedWithTokenMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table participants add column voted_with_token boolean not null default false');
  }

  override async down(): Promise<void> {
    this.addSql('alter table participants drop column voted_with_token');
  }
}
