import { eventsMigrations } from '@pp/events';
import { IntegrationsMigration } from './0001-integrations.migration.ts';
import { RefreshLeaseMigration } from './0002-refresh-lease.migration.ts';
import { OAuthBrowserMigration } from './0003-oauth-browser.migration.ts';
import { SyncLogAgeMigration } from './0004-sync-log-age.migration.ts';

export const migrations = [
  ...eventsMigrations,
  { name: '0001-integrations', class: IntegrationsMigration },
  { name: '0002-refresh-lease', class: RefreshLeaseMigration },
  { name: '0003-oauth-browser', class: OAuthBrowserMigration },
  { name: '0004-sync-log-age', class: SyncLogAgeMigration },
];
