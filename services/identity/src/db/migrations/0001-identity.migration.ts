// Foreign keys are checked at commit: the ORM may insert a user's token before the user within one flush.
import { Migration } from '@pp/db';

export class IdentityMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table users (
      id uuid primary key,
      email varchar(320) not null,
      name varchar(255) not null,
      password_hash text null,
      email_verified boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create unique index users_email_unique on users (email)');
    this.addSql(`create table tokens (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade deferrable initially deferred,
      kind varchar(16) not null check (kind in ('access', 'api', 'mcp')),
      name varchar(255) not null,
      secret_hash char(64) not null,
      prefix varchar(32) not null,
      created_at timestamptz not null,
      expires_at timestamptz null,
      last_used_at timestamptz null,
      revoked_at timestamptz null
    )`);
    this.addSql('create unique index tokens_secret_hash_unique on tokens (secret_hash)');
    this.addSql('create index tokens_user_idx on tokens (user_id, kind) where revoked_at is null');
    this.addSql(`create table linked_accounts (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade deferrable initially deferred,
      provider varchar(64) not null,
      subject varchar(255) not null,
      email varchar(320) null,
      created_at timestamptz not null
    )`);
    this.addSql(
      'create unique index linked_accounts_provider_subject_unique on linked_accounts (provider, subject)',
    );
    this.addSql(`create table oauth_states (
      id uuid primary key,
      provider varchar(64) not null,
      code_verifier varchar(128) not null,
      created_at timestamptz not null,
      expires_at timestamptz not null
    )`);
    this.addSql('create index oauth_states_expires_idx on oauth_states (expires_at)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists oauth_states');
    this.addSql('drop table if exists linked_accounts');
    this.addSql('drop table if exists tokens');
    this.addSql('drop table if exists users');
  }
}
