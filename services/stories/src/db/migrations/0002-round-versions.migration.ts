import { Migration } from '@pp/db';

/**
 * Each change of a session's stories takes the next round version before it tells the sessions unit
 * (which owns the voting round), and marks the round unsettled until the change commits here: a
 * round left unsettled (a crash, a lost answer) is stated again by the round sync task.
 */
export class RoundVersionsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table sessions add column round_version integer not null default 0,
      add column round_unsettled_since timestamptz null`);
    this.addSql(`create index sessions_round_unsettled_idx on sessions (round_unsettled_since)
      where round_unsettled_since is not null`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists sessions_round_unsettled_idx');
    this.addSql('alter table sessions drop column round_unsettled_since, drop column round_version');
  }
}
