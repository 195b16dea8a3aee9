import { eventsMigrations } from '@pp/events';
import { StoriesMigration } from './0001-stories.migration.ts';
import { RoundVersionsMigration } from './0002-round-versions.migration.ts';
import { QueueVersionMigration } from './0003-queue-version.migration.ts';
import { StoryHistoryMigration } from './0004-story-history.migration.ts';
import { NfcDecksMigration } from './0005-nfc-decks.migration.ts';
import { RoundCountdownsMigration } from './0006-round-countdowns.migration.ts';
import { ArchivingMigration } from './0007-archiving.migration.ts';
import { StoryHistoryAgeMigration } from './0008-story-history-age.migration.ts';
import { DeadlineDueMigration } from './0009-deadline-due.migration.ts';

export const migrations = [
  ...eventsMigrations,
  { name: '0001-stories', class: StoriesMigration },
  { name: '0002-round-versions', class: RoundVersionsMigration },
  { name: '0003-queue-version', class: QueueVersionMigration },
  { name: '0004-story-history', class: StoryHistoryMigration },
  { name: '0005-nfc-decks', class: NfcDecksMigration },
  { name: '0006-round-countdowns', class: RoundCountdownsMigration },
  { name: '0007-archiving', class: ArchivingMigration },
  { name: '0008-story-history-age', class: StoryHistoryAgeMigration },
  { name: '0009-deadline-due', class: DeadlineDueMigration },
];
