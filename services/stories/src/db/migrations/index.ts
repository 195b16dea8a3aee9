import { eventsMigrations } from '@pp/events';
import { StoriesMigration } from './0001-stories.migration.ts';

export const migrations = [...eventsMigrations, { name: '0001-stories', class: StoriesMigration }];
