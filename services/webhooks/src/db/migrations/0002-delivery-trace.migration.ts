import { Migration } from '@pp/db';

/**
 * The trace a delivery belongs to: the W3C traceparent of the consumer that recorded it (null without
 * tracing), so that its attempts, made later by whichever replica claims it, join the trace of the
 * request that caused the event.
 */
export class DeliveryTraceMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table deliveries add column if not exists traceparent text null');
  }

  override async down(): Promise<void> {
    this.addSql('alter table deliveries drop column if exists traceparent');
  }
}
