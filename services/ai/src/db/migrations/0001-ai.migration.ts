import { Migration } from '@pp/db';

export class AiMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table past_stories (
      story_id uuid primary key,
      session_id uuid not null,
      owner_id varchar(255) not null,
      title varchar(200) not null,
      final_estimate varchar(32) null,
      votes jsonb not null,
      terms jsonb not null,
      terms_version int not null,
      revealed_at timestamptz not null
    )`);
    this.addSql('create index past_stories_owner_idx on past_stories (owner_id)');
    this.addSql('create index past_stories_session_idx on past_stories (session_id)');
    this.addSql(`create table model_budget (
      user_id varchar(255) not null,
      window_start timestamptz not null,
      calls int not null,
      primary key (user_id, window_start)
    )`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists model_budget');
    this.addSql('drop table if exists past_stories');
  }
}
