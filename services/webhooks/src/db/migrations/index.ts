import { eventsMigrations } from '@pp/events';
import { WebhooksMigration } from './0001-webhooks.migration.ts';
import { DeliveryTraceMigration } from './0002-delivery-trace.migration.ts';
import { WantedEventTypesMigration } from './0003-wanted-event-types.migration.ts';

export const migrations = [
  ...eventsMigrations,
  { name: '0001-webhooks', class: WebhooksMigration },
  { name: '0002-delivery-trace', class: DeliveryTraceMigration },
  { name: '0003-wanted-event-types', class: WantedEventTypesMigration },
];
