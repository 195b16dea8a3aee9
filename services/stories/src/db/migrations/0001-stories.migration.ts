import { Migration } from '@pp/db';

export class StoriesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table sessions (
      id uuid primary key,
      code varchar(16) not null,
      owner_id varchar(255) not null,
      name varchar(255) not null,
      status varchar(16) not null,
      voting_system varchar(32) not null,
      deck jsonb not null,
      record_vote_names boolean not null,
      auto_reveal boolean not null,
      voteby_enabled boolean not null,
      vote_by_at timestamptz null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index sessions_code_idx on sessions (code)');
    this.addSql(
      'create index sessions_vote_by_idx on sessions (vote_by_at) where voteby_enabled and vote_by_at is not null',
    );
    this.addSql(`create table stories (
      id uuid primary key,
      session_id uuid not null,
      title varchar(200) not null,
      description text not null default '',
      acceptance_criteria text not null default '',
      status varchar(16) not null check (status in ('pending', 'voting', 'revealed')),
      position int not null,
      final_estimate varchar(32) null,
      votes jsonb null,
      revealed_at timestamptz null,
      voting_started_at timestamptz null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index stories_session_position_idx on stories (session_id, position)');
    this.addSql(`create index stories_voting_idx on stories (session_id) where status = 'voting'`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists stories');
    this.addSql('drop table if exists sessions');
  }
}
