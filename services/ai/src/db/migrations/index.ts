import { eventsMigrations } from '@pp/events';
import { AiMigration } from './0001-ai.migration.ts';
import { HistoryVersionMigration } from './0002-history-version.migration.ts';
import { PastStoryRemovalsMigration } from './0003-past-story-removals.migration.ts';

export const migrations = [
  ...eventsMigrations,
  { name: '0001-ai', class: AiMigration },
  { name: '0002-history-version', class: HistoryVersionMigration },
  { name: '0003-past-story-removals', class: PastStoryRemovalsMigration },
];
