import { EventsMigration } from '@pp/events';
import { IdentityMigration } from './0001-identity.migration.ts';

export const migrations = [
  { name: '0000-events', class: EventsMigration },
  { name: '0001-identity', class: IdentityMigration },
];
