import { Migration } from '@pp/db';

export class WebhooksMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table webhooks (
      id uuid primary key,
      owner_id varchar(255) not null,
      url text not null,
      kind varchar(16) not null check (kind in ('generic', 'slack', 'teams', 'discord')),
      events text[] not null,
      session_id uuid null,
      session_code char(6) null,
      secret_sealed text not null,
      previous_secret_sealed text null,
      previous_secret_until timestamptz null,
      enabled boolean not null default true,
      disabled_reason text null,
      disabled_at timestamptz null,
      failing_since timestamptz null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index webhooks_owner_idx on webhooks (owner_id, created_at, id)');

    // Who owns each session, from session.* events (or asked of the sessions unit when one is late).
    this.addSql(`create table session_owners (
      session_id uuid primary key,
      code char(6) not null,
      owner_id varchar(255) not null
    )`);
    this.addSql('create index session_owners_code_idx on session_owners (code)');

    // One delivery per webhook and event (a redelivered event adds none); its id is the webhook-id header.
    this.addSql(`create table deliveries (
      id uuid primary key,
      webhook_id uuid not null references webhooks (id) on delete cascade,
      event_id uuid not null,
      event_type varchar(64) not null,
      payload jsonb not null,
      status varchar(16) not null check (status in ('pending', 'succeeded', 'failed')),
      attempts integer not null default 0,
      retries boolean not null default true,
      redeliver_requested boolean not null default false,
      next_attempt_at timestamptz null,
      claimed_until timestamptz null,
      last_attempt_at timestamptz null,
      last_status_code integer null,
      created_at timestamptz not null,
      unique (webhook_id, event_id)
    )`);
    this.addSql(`create index deliveries_due_idx on deliveries (next_attempt_at) where status = 'pending'`);
    this.addSql('create index deliveries_webhook_idx on deliveries (webhook_id, created_at desc, id)');
    this.addSql('create index deliveries_age_idx on deliveries (created_at)');

    this.addSql(`create table delivery_attempts (
      delivery_id uuid not null references deliveries (id) on delete cascade,
      number integer not null,
      manual boolean not null default false,
      attempted_at timestamptz not null,
      status_code integer null,
      latency_ms integer not null,
      response_excerpt text null,
      error text null,
      primary key (delivery_id, number)
    )`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists delivery_attempts');
    this.addSql('drop table if exists deliveries');
    this.addSql('drop table if exists session_owners');
    this.addSql('drop table if exists webhooks');
  }
}
