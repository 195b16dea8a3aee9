import { Migration } from '@mikro-orm/migrations';

/** The outbox and processed-events tables every service with events needs. */
export class EventsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists outbox (
      id uuid primary key,
      type varchar(255) not null,
      payload jsonb not null,
      created_at timestamptz not null default now(),
      published_at timestamptz null,
      attempts int not null default 0,
      last_error text null
    )`);
    this.addSql(
      `create index if not exists outbox_unpublished_idx on outbox (created_at) where published_at is null`,
    );
    this.addSql(`create table if not exists processed_events (
      consumer varchar(255) not null,
      event_id uuid not null,
      processed_at timestamptz not null default now(),
      primary key (consumer, event_id)
    )`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists processed_events');
    this.addSql('drop table if exists outbox');
  }
}
