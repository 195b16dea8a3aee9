import { Migration } from '@pp/db';

/**
 * When the session's current (voting) story was opened (minus infinity when it does not say; null:
 * no story is voting), written by every change of the stories with the change itself. With it, the
 * sessions whose vote-by deadline is due to reveal their open story (the story opened before the
 * deadline, the session not archived) are one index of their own, whose range up to now is exactly
 * what the deadline task reveals: it no longer reads every open story of every session each time it
 * polls, only the due ones.
 */
export class DeadlineDueMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table sessions add column voting_since timestamptz');
    this.addSql(`update sessions s set voting_since = v.since
      from (select session_id, coalesce(voting_started_at, '-infinity') as since
              from stories where status = 'voting') v
     where v.session_id = s.id`);
    this.addSql('drop index sessions_vote_by_idx');
    this.addSql(`create index sessions_deadline_due_idx on sessions (vote_by_at)
      where voteby_enabled and voting_since <= vote_by_at and status <> 'archived'`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index sessions_deadline_due_idx');
    this.addSql(
      'create index sessions_vote_by_idx on sessions (vote_by_at) where voteby_enabled and vote_by_at is not null',
    );
    this.addSql('alter table sessions drop column voting_since');
  }
}
