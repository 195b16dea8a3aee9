import { Migration } from '@pp/db';

/**
 * Who is in the room right now, shared by every replica: each open room stream of a participant (on
 * whichever replica holds it; seen again every few seconds while open, so a replica that died leaves
 * no stream behind for long), and whether the participant is announced as connected.
 */
export class PresenceMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table room_streams (
      stream_id uuid primary key,
      session_id uuid not null,
      participant_id int not null,
      seen_at timestamptz not null,
      closed_at timestamptz
    )`);
    this.addSql('create index room_streams_participant on room_streams (participant_id)');
    this.addSql(`create table room_presence (
      participant_id int primary key,
      session_id uuid not null,
      connected boolean not null default false
    )`);
    this.addSql('create index room_presence_connected on room_presence (session_id) where connected');
  }

  override async down(): Promise<void> {
    this.addSql('drop table room_streams');
    this.addSql('drop table room_presence');
  }
}
