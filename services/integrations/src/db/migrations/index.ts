import { eventsMigrations } from '@pp/events';
import { IntegrationsMigration } from './0001-integrations.migration.ts';

export const migrations = [...eventsMigrations, { name: '0001-integrations', class: IntegrationsMigration }];
