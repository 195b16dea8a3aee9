import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import {
  makeEvent,
  type EventData,
  type EventEnvelope,
  type EventType,
  type SessionSnapshot,
} from '@pp/contracts';
import { connectNats, subjectFor, type NatsConnection } from '@pp/events';
import { IDENTITY_HEADER, signIdentity } from '@pp/http';
import { createLogger } from '@pp/logger';
import { startService, type StartedService } from '@pp/runtime';
import { api, createTestDatabase, testNatsUrl, uniqueName, type TestDatabase } from '@pp/testing';
import { definition, type StoriesOptions } from '../../src/app.ts';
import { readConfig, type Config } from '../../src/config.ts';
import { startFakeSessions, type FakeSessions } from './fake-sessions.ts';

export const KEY = 'internal-signing-key-for-stories-tests-0123456789';
export const logger = createLogger({ name: 'stories-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** Headers of a signed-in user, as the gateway forwards them. */
export const as = (userId: string, name = 'Owner') => ({
  headers: { [IDENTITY_HEADER]: signIdentity(KEY, { sub: userId, kind: 'user', name }) },
});

import { until } from '@pp/testing';

export { until };

/**
 * The stories service in process (libs/runtime, like main.ts) on a fresh database and its own event
 * prefix, with a stand-in sessions service, a publisher of session events and a log of what it publishes.
 */
export async function startStories(env: Record<string, string> = {}, options: StoriesOptions = {}) {
  const testDb: TestDatabase = await createTestDatabase('stories');
  const prefix = uniqueName('st').toLowerCase();
  const fake: FakeSessions = await startFakeSessions(KEY, logger);
  const config: Config = readConfig({
    DATABASE_URL: testDb.url,
    NATS_URL: testNatsUrl(),
    INTERNAL_SIGNING_KEY: KEY,
    EVENTS_PREFIX: prefix,
    SESSIONS_URL: fake.url,
    VOTE_BY_POLL_MS: '100',
    PORT: '0',
    ...env,
  });
  const def = { ...definition(config, options), host: '127.0.0.1' };
  let service: StartedService = await startService(def, logger);
  const nc: NatsConnection = await connectNats({ url: config.NATS_URL, name: 'stories-test', logger });
  const js = jetstream(nc);
  const published: EventEnvelope[] = [];
  const sub = nc.subscribe(`${prefix}.story.>`, {
    callback: (_err, msg) => {
      published.push(msg.json<EventEnvelope>());
    },
  });

  async function publish<T extends EventType>(type: T, data: EventData<T>) {
    const event = makeEvent(type, data, { source: 'sessions' });
    await js.publish(subjectFor(service.runtime.bus, type), JSON.stringify(event), { msgID: event.id });
    return event;
  }

  const harness = {
    config,
    fake,
    published,
    prefix,
    get service() {
      return service;
    },
    client: api(() => service.server.url),
    publish,
    /** A session known to the stand-in, announced by session.created and consumed by stories. */
    async session(overrides: Partial<SessionSnapshot> = {}) {
      const session = fake.addSession(overrides);
      await publish('session.created', { session });
      await until(() => harness.readModel(session.id));
      return session;
    },
    async readModel(sessionId: string) {
      const rows = (await service.runtime.db
        .fork()
        .getConnection()
        .execute('select * from sessions where id = ?', [sessionId])) as Array<Record<string, unknown>>;
      return rows[0];
    },
    /** Waits for an event the service published. */
    event: <T extends EventType>(type: T, match: (data: EventData<T>) => boolean = () => true) =>
      until(
        async () =>
          published.find((e) => e.type === type && match(e.data as EventData<T>)) as
            EventEnvelope<EventData<T>> | undefined,
      ),
    async restart() {
      await service.stop();
      service = await startService(def, logger);
    },
    async stop() {
      sub.unsubscribe();
      await service.stop();
      await fake.close();
      const jsm = await jetstreamManager(nc);
      const bus = service.runtime.bus;
      for (const stream of [bus.stream, bus.deadLetterStream])
        await jsm.streams.delete(stream).catch(() => undefined);
      await nc.close();
      await testDb.drop();
    },
  };
  return harness;
}

export type StoriesHarness = Awaited<ReturnType<typeof startStories>>;
