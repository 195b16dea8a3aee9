import { eventsMigrations } from '@pp/events';
import { IdentityMigration } from './0001-identity.migration.ts';

export const migrations = [...eventsMigrations, { name: '0001-identity', class: IdentityMigration }];
