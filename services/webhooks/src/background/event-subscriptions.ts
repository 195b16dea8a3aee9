import { publicEventTypes, type EventType } from '@pp/contracts';
import type { EntityManager } from '@pp/db';
import {
  consumerNames,
  filterForType,
  inBatches,
  removeConsumer,
  startConsumer,
  type RunningConsumer,
} from '@pp/events';
import type { BackgroundTask, ServiceRuntime } from '@pp/runtime';
import { wantedEventTypes } from '../db/webhook.repository.ts';
import { ALL_EVENTS } from '../domain/payload.ts';
import { recordEvents } from '../use-cases/record-event.use-case.ts';
import type { WebhooksContext } from '../use-cases/shared/context.ts';

/** The durable of every event that an earlier version ran: the consumers by type take over from it. */
export const RETIRED_EVENTS_CONSUMER = 'webhooks-events';

/** The durable that takes the events of one type (shared by the unit's replicas). */
export const durableFor = (type: string) => `webhooks-${type.replace(/\./g, '-')}`;

/**
 * The unit receives only the events some webhook wants: one durable consumer per public event type
 * (NATS 2.9 takes one subject filter per consumer), there only while an enabled webhook subscribes to
 * that type, so a platform, or a type, without webhooks costs nothing per event. Each consumer turns
 * its events into deliveries (a burst in one statement; idempotent by itself, and it may call the
 * sessions unit, which no transaction may be open across).
 *
 * Every replica brings its consumers in line with the webhooks table (`reconcile`): every
 * `intervalMs`, and at once when a webhook changes on this replica (`changed`). A type wanted again
 * gets a durable that starts at the wanting webhooks' last change; the durable of all events an
 * earlier version ran is taken over (each new durable starts where it stood) and then removed.
 */
export function eventSubscriptions(options: {
  runtime: ServiceRuntime;
  context: (em?: EntityManager) => WebhooksContext;
  intervalMs?: number;
}) {
  const { runtime } = options;
  const { bus, logger } = runtime;
  const running = new Map<string, RunningConsumer>();
  let started = false;
  let stopped = false;
  let pass: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  const consumerOf = (type: EventType) => ({
    durable: durableFor(type),
    filterSubject: filterForType(bus, type),
    idempotent: true,
    concurrency: 8,
    ...inBatches([type], (events, em) =>
      recordEvents(options.context(em), events as Parameters<typeof recordEvents>[1]),
    ),
  });

  async function reconcileOnce() {
    const wanted = await wantedEventTypes(runtime.db.fork());
    const all = wanted.get(ALL_EVENTS);
    const there = await consumerNames(runtime.nc, bus.stream);
    for (const type of publicEventTypes) {
      if (stopped) return;
      const since = [wanted.get(type), all].filter((d): d is Date => d !== undefined);
      const durable = durableFor(type);
      const mine = running.get(type);
      if (since.length > 0) {
        // Removed meanwhile (by a replica that found no webhook wanting it): made again below.
        if (mine && !there.has(durable)) {
          await mine.stop();
          running.delete(type);
        }
        if (running.has(type)) continue;
        // From when the wanting webhooks last changed: a webhook gets the events from its making on.
        const from = Math.min(...since.map((d) => d.getTime()));
        running.set(
          type,
          await startConsumer({
            ...consumerOf(type),
            takesOverFrom: [RETIRED_EVENTS_CONSUMER],
            startTime: new Date(from),
            nc: runtime.nc,
            orm: runtime.db.orm,
            logger,
            bus,
          }),
        );
      } else if (mine || there.has(durable)) {
        await mine?.stop();
        running.delete(type);
        await removeConsumer(runtime.nc, bus, durable);
      }
    }
    // Every wanted type has its durable now, started where the retired one stood: it can go.
    if (there.has(RETIRED_EVENTS_CONSUMER)) {
      await removeConsumer(runtime.nc, bus, RETIRED_EVENTS_CONSUMER);
      logger.info({ consumer: RETIRED_EVENTS_CONSUMER }, 'retired the durable of every event');
    }
  }

  /** One pass at a time; a change during a pass makes another one after it. */
  function reconcile(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (pass) {
      again = true;
      return pass;
    }
    pass = reconcileOnce()
      .catch((err) => logger.warn({ err }, 'webhook event consumers not brought in line, will retry'))
      .finally(() => {
        pass = undefined;
        if (again && !stopped) {
          again = false;
          void reconcile();
        }
      });
    return pass;
  }

  return {
    /** A webhook changed on this replica: the consumers follow at once (a no-op before the start). */
    changed() {
      if (started) void reconcile();
    },
    /** Brings the consumers in line now and then every `intervalMs`, until the task stops. */
    start(): BackgroundTask {
      started = true;
      void reconcile();
      timer = setInterval(() => void reconcile(), options.intervalMs ?? 2_000);
      timer.unref();
      return {
        name: 'webhook-event-consumers',
        stop: async () => {
          stopped = true;
          clearInterval(timer);
          await pass;
          for (const consumer of running.values()) await consumer.stop();
          running.clear();
        },
      };
    },
    /** The event types this replica consumes now (for tests). */
    consuming: () => [...running.keys()].sort(),
  };
}

export type EventSubscriptions = ReturnType<typeof eventSubscriptions>;
