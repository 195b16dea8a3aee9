import { eventsMigrations } from '@pp/events';
import { AiMigration } from './0001-ai.migration.ts';
import { HistoryVersionMigration } from './0002-history-version.migration.ts';

export const migrations = [
  ...eventsMigrations,
  { name: '0001-ai', class: AiMigration },
  { name: '0002-history-version', class: HistoryVersionMigration },
];
