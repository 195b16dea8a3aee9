import { Migration } from '@pp/db';

/**
 * Rounds replace the read model of the stories: the sessions unit owns the round of each story
 * (open, current, sealed) and the stories unit changes it by command, each command numbered by the
 * session's `round_version` so a late or repeated one changes nothing.
 */
export class RoundsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table stories rename to rounds');
    this.addSql('alter index stories_voting_idx rename to rounds_voting_idx');
    // One current round per session, as the commands keep it (an older read model may hold more).
    this.addSql(`update rounds set status = 'pending' where status = 'voting' and id not in (
      select distinct on (session_id) id from rounds where status = 'voting'
       order by session_id, status_at desc nulls last)`);
    this.addSql('drop index rounds_voting_idx');
    this.addSql(`create unique index rounds_current_unique on rounds (session_id) where status = 'voting'`);
    this.addSql('alter table rounds drop column content_at, drop column status_at');
    this.addSql('alter table sessions add column round_version integer not null default 0');
  }

  override async down(): Promise<void> {
    this.addSql('alter table sessions drop column round_version');
    this.addSql(
      'alter table rounds add column content_at timestamptz null, add column status_at timestamptz null',
    );
    this.addSql('drop index rounds_current_unique');
    this.addSql(`create index stories_voting_idx on rounds (session_id) where status = 'voting'`);
    this.addSql('alter table rounds rename to stories');
  }
}
