import { Migration } from '@pp/db';

/**
 * Reads by a column that only partial indexes covered, which read the whole of a growing table:
 * - the presence sweep (every second, on every replica) looks for connected participants without an
 *   open stream: it walked every participant who ever opened the room; now the connected ones only;
 * - a session's rounds (a change of the deck checks the votes of its unsealed rounds) and, when a
 *   session is deleted (a template's session whose stories could not be added), its rounds and
 *   participants, which the cascade finds by session: the rounds had an index of the current round
 *   only, the participants one of those not removed.
 */
export class ReadsBySessionMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create index room_presence_connected_participant on room_presence (participant_id) where connected',
    );
    this.addSql('create index rounds_session_idx on rounds (session_id)');
    this.addSql('create index participants_session_all_idx on participants (session_id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop index participants_session_all_idx');
    this.addSql('drop index rounds_session_idx');
    this.addSql('drop index room_presence_connected_participant');
  }
}
