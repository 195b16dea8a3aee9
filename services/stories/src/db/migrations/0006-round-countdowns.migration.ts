import { Migration } from '@pp/db';

/**
 * The countdowns of open rounds that reveal at zero, as the sessions unit announced them
 * (countdown.started, countdown.ended): the deadline task reveals their stories at zero. `set_at` is
 * the announcement's time, so an older one arriving late never overwrites a newer one.
 */
export class RoundCountdownsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table round_countdowns (
      story_id uuid primary key,
      session_id uuid not null,
      reveal_at timestamptz,
      set_at timestamptz not null
    )`);
    this.addSql(
      'create index round_countdowns_reveal_at on round_countdowns (reveal_at) where reveal_at is not null',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table round_countdowns');
  }
}
