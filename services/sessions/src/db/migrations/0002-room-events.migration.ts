import { Migration } from '@pp/db';

/** What the live room showed lately, in order: a client that reconnects gets what it missed. */
export class RoomEventsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table room_events (
      seq bigint generated always as identity primary key,
      event_id uuid not null,
      session_id uuid not null,
      type varchar(64) not null,
      payload jsonb not null,
      occurred_at timestamptz not null
    )`);
    this.addSql('create unique index room_events_event_unique on room_events (event_id)');
    this.addSql('create index room_events_session_idx on room_events (session_id, seq)');
    this.addSql('create index room_events_occurred_idx on room_events (occurred_at)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists room_events');
  }
}
