import { Migration } from '@pp/db';

export class IntegrationsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table connections (
      id uuid primary key,
      owner_id varchar(255) not null,
      provider varchar(32) not null,
      name varchar(100) not null,
      auth_method varchar(8) not null check (auth_method in ('token', 'oauth', 'none')),
      settings jsonb not null,
      credentials text not null,
      status varchar(24) not null default 'active' check (status in ('active', 'needs_reconnection')),
      account varchar(255) null,
      token_expires_at timestamptz null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index connections_owner_idx on connections (owner_id, created_at)');
    this.addSql(`create table oauth_states (
      id varchar(64) primary key,
      owner_id varchar(255) not null,
      provider varchar(32) not null,
      name varchar(100) not null,
      code_verifier text null,
      expires_at timestamptz not null
    )`);
    this.addSql(`create table imported_stories (
      session_id uuid not null,
      source varchar(600) not null,
      external_id varchar(255) not null,
      story_id uuid not null,
      provider varchar(32) not null,
      connection_id uuid null,
      url text null,
      created_at timestamptz not null,
      primary key (session_id, source, external_id)
    )`);
    this.addSql('create index imported_stories_story_idx on imported_stories (story_id)');
    this.addSql(`create table sync_logs (
      id bigserial primary key,
      owner_id varchar(255) not null,
      session_id uuid not null,
      session_code varchar(16) not null,
      story_id uuid null,
      connection_id uuid null,
      provider varchar(32) not null,
      external_id varchar(255) null,
      status varchar(8) not null check (status in ('synced', 'failed', 'skipped')),
      estimate varchar(32) null,
      message text null,
      trigger varchar(8) not null check (trigger in ('manual', 'auto')),
      event_id uuid null,
      created_at timestamptz not null
    )`);
    this.addSql('create index sync_logs_owner_idx on sync_logs (owner_id, id desc)');
    this.addSql(
      'create unique index sync_logs_event_story_idx on sync_logs (event_id, story_id) where event_id is not null',
    );
  }

  override async down(): Promise<void> {
    for (const table of ['sync_logs', 'imported_stories', 'oauth_states', 'connections'])
      this.addSql(`drop table if exists ${table}`);
  }
}
