import { eventsMigrations } from '@pp/events';
import { IdentityMigration } from './0001-identity.migration.ts';
import { OAuthBrowserMigration } from './0002-oauth-browser.migration.ts';
import { LinkedAccountsByUserMigration } from './0003-linked-accounts-by-user.migration.ts';
import { EndedTokensMigration } from './0004-ended-tokens.migration.ts';

export const migrations = [
  ...eventsMigrations,
  { name: '0001-identity', class: IdentityMigration },
  { name: '0002-oauth-browser', class: OAuthBrowserMigration },
  { name: '0003-linked-accounts-by-user', class: LinkedAccountsByUserMigration },
  { name: '0004-ended-tokens', class: EndedTokensMigration },
];
