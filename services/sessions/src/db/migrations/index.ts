import { eventsMigrations } from '@pp/events';
import { SessionsMigration } from './0001-sessions.migration.ts';
import { RoomEventsMigration } from './0002-room-events.migration.ts';

export const migrations = [
  ...eventsMigrations,
  { name: '0001-sessions', class: SessionsMigration },
  { name: '0002-room-events', class: RoomEventsMigration },
];
