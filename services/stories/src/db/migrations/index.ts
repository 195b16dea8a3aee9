import { EventsMigration } from '@pp/events';
import { StoriesMigration } from './0001-stories.migration.ts';

export const migrations = [
  { name: '0000-events', class: EventsMigration },
  { name: '0001-stories', class: StoriesMigration },
];
