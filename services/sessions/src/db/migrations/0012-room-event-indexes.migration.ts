import { Migration } from '@pp/db';

/**
 * Every event the room shows writes a row here, on the vote's and every change's path: the table
 * keeps the indexes its reads need and no more. The event id, unique already, becomes the key (as
 * the entity has it), so the identity column no longer needs an index of its own (the reads order
 * a session's rows by it through room_events_session_idx). The age of a row serves only the pruning,
 * every ten minutes: a BRIN index, which the rows inserted since the last summary do not touch (they
 * are appended in about the order of their time), instead of a B-tree entry per row.
 */
export class RoomEventIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table room_events drop constraint room_events_pkey');
    this.addSql(
      'alter table room_events add constraint room_events_pkey primary key using index room_events_event_unique',
    );
    this.addSql('drop index room_events_occurred_idx');
    this.addSql('create index room_events_occurred_brin on room_events using brin (occurred_at)');
  }

  override async down(): Promise<void> {
    this.addSql('drop index room_events_occurred_brin');
    this.addSql('create index room_events_occurred_idx on room_events (occurred_at)');
    this.addSql('alter table room_events drop constraint room_events_pkey');
    this.addSql('create unique index room_events_event_unique on room_events (event_id)');
    this.addSql('alter table room_events add constraint room_events_pkey primary key (seq)');
  }
}
