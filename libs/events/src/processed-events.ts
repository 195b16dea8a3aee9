import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '@pp/logger';
import { EVENT_RETENTION_SECONDS } from './nats.ts';

/** A day past the stream's retention: no redelivery can come for an event handled before that. */
export const PROCESSED_EVENTS_KEEP_MS = EVENT_RETENTION_SECONDS * 1000 + 24 * 3600 * 1000;

/**
 * Deletes the processed-events rows older than `before` (their events can no longer be redelivered)
 * and, when it deleted some, vacuums the table: autovacuum may be off or behind.
 */
export async function forgetProcessedEvents(orm: MikroORM, before: Date): Promise<number> {
  const conn = orm.em.fork().getConnection();
  const result = (await conn.execute(
    'delete from processed_events where processed_at < ?',
    [before],
    'run',
  )) as {
    affectedRows: number;
  };
  if (result.affectedRows > 0) await conn.execute('vacuum (skip_locked) processed_events');
  return result.affectedRows;
}

/** Background work of a service with consumers: forgets old processed-events rows every hour. */
export function startProcessedEventsPruner(options: { orm: MikroORM; logger: Logger; everyMs?: number }) {
  const timer = setInterval(() => {
    forgetProcessedEvents(options.orm, new Date(Date.now() - PROCESSED_EVENTS_KEEP_MS)).catch((err) =>
      options.logger.warn({ err }, 'could not forget old processed events'),
    );
  }, options.everyMs ?? 3600_000);
  timer.unref();
  return { name: 'processed-events pruning', stop: () => clearInterval(timer) };
}
