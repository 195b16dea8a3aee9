import { Migration } from '@pp/db';

/**
 * Every change to a kept story takes the next number of a sequence: an owner's count of stories and
 * their highest number change with any change to their history, so a replica can tell in one index
 * read whether what it built from that history is still current.
 */
export class HistoryVersionMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('create sequence past_stories_seq');
    this.addSql(
      `alter table past_stories add column seq bigint not null default nextval('past_stories_seq')`,
    );
    this.addSql('create index past_stories_owner_seq_idx on past_stories (owner_id, seq)');
    this.addSql('drop index past_stories_owner_idx');
  }

  override async down(): Promise<void> {
    this.addSql('create index past_stories_owner_idx on past_stories (owner_id)');
    this.addSql('drop index past_stories_owner_seq_idx');
    this.addSql('alter table past_stories drop column seq');
    this.addSql('drop sequence past_stories_seq');
  }
}
