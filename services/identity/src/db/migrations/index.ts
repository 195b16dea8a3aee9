import { eventsMigrations } from '@pp/events';
import { IdentityMigration } from './0001-identity.migration.ts';
import { OAuthBrowserMigration } from './0002-oauth-browser.migration.ts';

export const migrations = [
  ...eventsMigrations,
  { name: '0001-identity', class: IdentityMigration },
  { name: '0002-oauth-browser', class: OAuthBrowserMigration },
];
