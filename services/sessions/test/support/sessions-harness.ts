import http from 'node:http';
import type net from 'node:net';
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

/** What the stand-in for the stories unit answers about a session's current story (see below). */
export type CommittedStory = string | null | 'unreachable';

/**
 * A stand-in for the stories unit, which is not beside the service here: it answers which story is
 * current, and by default as the round commands the tests send made it (as if the stories unit
 * committed every change it told), unless a test says otherwise for a session; and it takes notices of
 * archives (kept in `archiving`, in order; none taken while `archivingDown`). Every other call finds
 * nothing listening: a template's stories cannot be added, a reveal cannot be asked (tests that need
 * them run the whole platform).
 */
async function startStoriesStandIn(currentOf: (sessionId: string) => Promise<string | null>) {
  const told = new Map<string, CommittedStory>();
  const archiving: Array<{ sessionId: string; body: Record<string, unknown> }> = [];
  const state = { archivingDown: false };
  const server = http.createServer((req, res) => {
    const notice = /^\/internal\/sessions\/([^/]+)\/archiving$/.exec(req.url ?? '');
    if (notice && req.method === 'PUT') {
      if (state.archivingDown) {
        req.socket.destroy();
        return;
      }
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        archiving.push({ sessionId: decodeURIComponent(notice[1]!), body: JSON.parse(text) });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
      return;
    }
    const found = /^\/internal\/sessions\/([^/]+)\/stories\?status=voting$/.exec(req.url ?? '');
    const sessionId = found && decodeURIComponent(found[1]!);
    const answer = sessionId && told.has(sessionId) ? told.get(sessionId)! : sessionId;
    if (!sessionId || answer === 'unreachable') {
      req.socket.destroy();
      return;
    }
    void (answer === sessionId ? currentOf(sessionId) : Promise.resolve(answer)).then((id) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ stories: id ? [{ id }] : [] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    told,
    archiving,
    state,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

/**
 * The sessions service in process, started the way main.ts starts it: its own fresh database, the
 * shared test NATS with an event prefix of its own, the outbox relay and the story consumer running.
 */
export async function startSessions(options: AppOptions = {}, env: Record<string, string> = {}) {
  const logger = createLogger({ name: 'sessions-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const testDb = await createTestDatabase('sessions');
  let current = async (_sessionId: string): Promise<string | null> => null;
  const stories = await startStoriesStandIn((sessionId) => current(sessionId));
  const config = readConfig({
    DATABASE_URL: testDb.url,
    NATS_URL: testNatsUrl(),
    INTERNAL_SIGNING_KEY: INTERNAL_KEY,
    EVENTS_PREFIX: uniqueName('t').toLowerCase(),
    PORT: '0',
    STORIES_URL: stories.url,
    ...env,
  });
  const service: StartedService = await startService(
    { ...definition(config, options), host: '127.0.0.1' },
    logger,
  );
  const { runtime } = service;
  current = async (sessionId) => {
    const [found] = (await runtime.db
      .fork()
      .getConnection()
      .execute("select id from rounds where session_id = ? and status = 'voting'", [sessionId])) as Array<{
      id: string;
    }>;
    return found?.id ?? null;
  };
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
    /** The service's database (a test's own connection to it: `withOwnConnection`). */
    databaseUrl: testDb.url,
    /** Every event published on this service's prefix since it started, and their texts as sent. */
    events: seen,
    rawEvents: raw,
    eventsOf: <T extends EventType>(type: T) =>
      seen.filter((e) => e.type === type) as Array<EventEnvelope<EventData<T>>>,
    /**
     * What the stand-in for the stories unit says is a session's current story (a story id, null for
     * none, or 'unreachable'), instead of the round the sessions unit holds.
     */
    storiesCommitted: stories.told,
    /** The archives the stories unit was told of (session id and notice), in order. */
    archivingNotices: stories.archiving,
    /** Whether the stand-in for the stories unit takes no notice of an archive (unreachable for it). */
    set storiesArchivingDown(down: boolean) {
      stories.state.archivingDown = down;
    },
    /**
     * Publishes an event as the stories service would (through JetStream, on this prefix); with the
     * round version of the change it comes from when given, as the stories service publishes them.
     */
    async publish<T extends EventType>(
      type: T,
      data: EventData<T>,
      occurredAt?: Date,
      roundVersion?: number,
    ) {
      const event = makeEvent(type, data, { source: 'stories', occurredAt });
      const sent = roundVersion === undefined ? event : { ...event, round_version: roundVersion };
      await jetstream(runtime.nc).publish(subjectFor(runtime.bus, type), JSON.stringify(sent), {
        msgID: event.id,
      });
      return event;
    },
    async stop() {
      subscription.unsubscribe();
      await deleteBusStreams(runtime.nc, runtime.bus);
      await service.stop();
      await stories.close();
      await testDb.drop();
    },
  };
}
export type SessionsHarness = Awaited<ReturnType<typeof startSessions>>;
