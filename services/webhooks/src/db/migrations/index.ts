import { eventsMigrations } from '@pp/events';
import { WebhooksMigration } from './0001-webhooks.migration.ts';

export const migrations = [...eventsMigrations, { name: '0001-webhooks', class: WebhooksMigration }];
