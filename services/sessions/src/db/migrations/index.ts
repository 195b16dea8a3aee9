import { eventsMigrations } from '@pp/events';
import { SessionsMigration } from './0001-sessions.migration.ts';
import { RoomEventsMigration } from './0002-room-events.migration.ts';
import { RoundsMigration } from './0003-rounds.migration.ts';
import { OrganisingMigration } from './0004-organising.migration.ts';
import { OneCurrentRoundMigration } from './0004-one-current-round.migration.ts';
import { RoomOrderMigration } from './0005-room-order.migration.ts';
import { NfcCardsMigration } from './0006-nfc-cards.migration.ts';
import { NameKeysMigration } from './0007-name-keys.migration.ts';
import { VotedWithTokenMigration } from './0008-voted-with-token.migration.ts';
import { RoundCountdownMigration } from './0009-round-countdown.migration.ts';
import { PresenceMigration } from './0010-presence.migration.ts';
import { RoundConfirmationMigration } from './0011-round-confirmation.migration.ts';
import { RoomEventIndexesMigration } from './0012-room-event-indexes.migration.ts';
import { SealedVotesMigration } from './0013-sealed-votes.migration.ts';
import { VoteCountsAsPublishedMigration } from './0014-vote-counts-as-published.migration.ts';
import { RoundStatsPlannedOnceMigration } from './0015-round-stats-planned-once.migration.ts';
import { ClaimCountsEachRoundOnceMigration } from './0016-claim-counts-each-round-once.migration.ts';
import { SealedVotesByVoterKeyMigration } from './0017-sealed-votes-by-voter-key.migration.ts';
import { OpenRoundCountsMigration } from './0018-open-round-counts.migration.ts';
import { ReadsBySessionMigration } from './0019-reads-by-session.migration.ts';

export const migrations = [
  ...eventsMigrations,
  { name: '0001-sessions', class: SessionsMigration },
  { name: '0002-room-events', class: RoomEventsMigration },
  { name: '0003-rounds', class: RoundsMigration },
  { name: '0004-organising', class: OrganisingMigration },
  { name: '0004-one-current-round', class: OneCurrentRoundMigration },
  { name: '0005-room-order', class: RoomOrderMigration },
  { name: '0006-nfc-cards', class: NfcCardsMigration },
  { name: '0007-name-keys', class: NameKeysMigration },
  { name: '0008-voted-with-token', class: VotedWithTokenMigration },
  { name: '0009-round-countdown', class: RoundCountdownMigration },
  { name: '0010-presence', class: PresenceMigration },
  { name: '0011-round-confirmation', class: RoundConfirmationMigration },
  { name: '0012-room-event-indexes', class: RoomEventIndexesMigration },
  { name: '0013-sealed-votes', class: SealedVotesMigration },
  { name: '0014-vote-counts-as-published', class: VoteCountsAsPublishedMigration },
  { name: '0015-round-stats-planned-once', class: RoundStatsPlannedOnceMigration },
  { name: '0016-claim-counts-each-round-once', class: ClaimCountsEachRoundOnceMigration },
  { name: '0017-sealed-votes-by-voter-key', class: SealedVotesByVoterKeyMigration },
  { name: '0018-open-round-counts', class: OpenRoundCountsMigration },
  { name: '0019-reads-by-session', class: ReadsBySessionMigration },
];
