import { Migration } from '@pp/db';
import { sessionsOutboxClaim } from './0014-vote-counts-as-published.migration.ts';

/**
 * Every vote.cast is counted again as it leaves, also one that counted every participant. A vote cast
 * at the same moment cannot add to such a count, but a participant who joined at the same moment can:
 * the vote's statement, begun before the join committed, said "2 of 2, everyone voted" while the room
 * had three voters, and the room showed it until its next vote. Counted at the claim, a vote.cast
 * published after a join counts the newcomer. A round of re-votes (everyone voted, some change their
 * card) now costs each claim one count per round it carries: under load a claim carries dozens of
 * votes; one at a time, the count runs after the vote's answer, off its path.
 */
export class EveryVoteCountedAsPublishedMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(sessionsOutboxClaim("c.type = 'vote.cast'"));
  }

  override async down(): Promise<void> {
    this.addSql(
      sessionsOutboxClaim(
        "c.type = 'vote.cast' and (c.payload->'data'->'stats'->>'all_voted') is distinct from 'true'",
      ),
    );
  }
}
