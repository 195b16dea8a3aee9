import { Migration } from '@pp/db';

/**
 * Where each of the room's events stands in the bus's order (the event stream's sequence), as the
 * record learns it when the event is published: a reconnecting client is replayed in that order, the
 * order of the live feed. Apart from room_events because an event of this unit is recorded with its
 * change, before it is published and has a place; the places are only ever inserted.
 */
export class RoomOrderMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table room_positions (
      event_id uuid primary key,
      session_id uuid not null,
      position bigint not null
    )`);
    this.addSql('create index room_positions_session_idx on room_positions (session_id, position)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists room_positions');
  }
}
