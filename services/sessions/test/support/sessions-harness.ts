import { jetstream } from '@nats-io/jetstream';
import { makeEvent, type EventData, type EventEnvelope, type EventType } from '@pp/contracts';
import { deleteBusStreams, subjectFor } from '@pp/events';
import { signIdentity } from '@pp/http';
import { createLogger } from '@pp/logger';
import { startService, type StartedService } from '@pp/runtime';
import { api, createTestDatabase, testNatsUrl, uniqueName } from '@pp/testing';
import { readConfig } from '../../src/config.ts';
import type { AppOptions } from '../../src/app.ts';
import { definition } from '../../src/app.ts';

export const INTERNAL_KEY = 'internal-signing-key-for-tests-0123456789';

export const asUser = (sub: string, name = sub) => ({
  'x-pp-identity': signIdentity(INTERNAL_KEY, { sub, kind: 'user', name, iss: 'gateway', aud: 'sessions' }),
});
export const asService = () => ({
  'x-pp-identity': signIdentity(INTERNAL_KEY, {
    sub: 'stories',
    kind: 'service',
    iss: 'stories',
    aud: 'sessions',
  }),
});

/**
 * The sessions service in process, started the way main.ts starts it: its own fresh database, the
 * shared test NATS with an event prefix of its own, the outbox relay and the story consumer running.
 */
export async function startSessions(options: AppOptions = {}, env: Record<string, string> = {}) {
  const logger = createLogger({ name: 'sessions-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const testDb = await createTestDatabase('sessions');
  const config = readConfig({
    DATABASE_URL: testDb.url,
    NATS_URL: testNatsUrl(),
    INTERNAL_SIGNING_KEY: INTERNAL_KEY,
    EVENTS_PREFIX: uniqueName('t').toLowerCase(),
    PORT: '0',
    // No stories unit beside it: a template's stories cannot be added (tests that need them run the
    // whole platform).
    STORIES_URL: 'http://127.0.0.1:9',
    STORIES_TIMEOUT_MS: '500',
    ...env,
  });
  const service: StartedService = await startService(
    { ...definition(config, options), host: '127.0.0.1' },
    logger,
  );
  const { runtime } = service;
  const seen: EventEnvelope[] = [];
  const raw: string[] = [];
  const subscription = runtime.nc.subscribe(`${runtime.bus.prefix}.>`, {
    callback: (_err, msg) => {
      raw.push(msg.string());
      seen.push(msg.json<EventEnvelope>());
    },
  });

  return {
    url: service.server.url,
    client: api(service.server.url),
    runtime,
    /** Every event published on this service's prefix since it started, and their texts as sent. */
    events: seen,
    rawEvents: raw,
    eventsOf: <T extends EventType>(type: T) =>
      seen.filter((e) => e.type === type) as Array<EventEnvelope<EventData<T>>>,
    /** Publishes an event as the stories service would (through JetStream, on this prefix). */
    async publish<T extends EventType>(type: T, data: EventData<T>, occurredAt?: Date) {
      const event = makeEvent(type, data, { source: 'stories', occurredAt });
      await jetstream(runtime.nc).publish(subjectFor(runtime.bus, type), JSON.stringify(event), {
        msgID: event.id,
      });
      return event;
    },
    async stop() {
      subscription.unsubscribe();
      await deleteBusStreams(runtime.nc, runtime.bus);
      await service.stop();
      await testDb.drop();
    },
  };
}
export type SessionsHarness = Awaited<ReturnType<typeof startSessions>>;
