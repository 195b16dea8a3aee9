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

/**
 * The outbox as a queue: a row is deleted once JetStream has acknowledged it (the stream keeps the
 * event), so the relay's claim reads a table that only holds what is pending, in commit order.
 */
export class OutboxQueueMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('delete from outbox where published_at is not null');
    this.addSql('drop index if exists outbox_unpublished_idx');
    this.addSql('alter table outbox drop column if exists published_at');
    this.addSql('create index if not exists outbox_order_idx on outbox (created_at, id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists outbox_order_idx');
    this.addSql('alter table outbox add column if not exists published_at timestamptz null');
    this.addSql(
      'create index if not exists outbox_unpublished_idx on outbox (created_at) where published_at is null',
    );
  }
}

/** Processed-events rows are let go once the stream cannot redeliver their events any more. */
export class ProcessedEventsAgeMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index if not exists processed_events_age_idx on processed_events (processed_at)');
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists processed_events_age_idx');
  }
}

/** The events tables' migrations, in order: every service with events runs them first. */
export const eventsMigrations = [
  { name: '0000-events', class: EventsMigration },
  { name: '0000-events-outbox-queue', class: OutboxQueueMigration },
  { name: '0000-events-processed-age', class: ProcessedEventsAgeMigration },
];
