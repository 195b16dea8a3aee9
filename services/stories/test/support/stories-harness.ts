/**
 * The stories service in process (libs/runtime, like main.ts) on a fresh database and an event
 * prefix of its own, with the REAL sessions service beside it: the owner of the voting round, which
 * every change of the stories goes through. The stories service reaches it through a TCP proxy a
 * test can cut or mute, and an HTTP proxy that records each call. (Only tests put two units
 * together like this: production code never imports another unit.)
 */
import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import {
  makeEvent,
  type EventData,
  type EventEnvelope,
  type EventType,
  type SessionSnapshot,
} from '@pp/contracts';
import { deleteBusStreams, subjectFor } from '@pp/events';
import { IDENTITY_HEADER, signIdentity } from '@pp/http';
import { createLogger } from '@pp/logger';
import { startService, type StartedService } from '@pp/runtime';
import {
  api,
  createTestDatabase,
  startRoundRobinProxy,
  startTcpProxy,
  slowStepOnStderr,
  stopInSteps,
  testNatsUrl,
  uniqueName,
  until,
  type TestDatabase,
} from '@pp/testing';
import { definition as sessionsDefinition } from '../../../sessions/src/app.ts';
import { readConfig as readSessionsConfig } from '../../../sessions/src/config.ts';
import { CommittedRounds } from '../../../sessions/src/use-cases/shared/committed-rounds.ts';
import { definition, type AppOptions } from '../../src/app.ts';
import { readConfig, type Config } from '../../src/config.ts';

export { until };

export const KEY = 'internal-signing-key-for-stories-tests-0123456789';
export const logger = createLogger({ name: 'stories-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** Headers of a signed-in user, as the gateway forwards them. */
export const as = (userId: string, name = 'Owner') => ({
  headers: {
    [IDENTITY_HEADER]: signIdentity(KEY, { sub: userId, kind: 'user', name, iss: 'gateway', aud: 'stories' }),
  },
});

export interface TestSession {
  id: string;
  code: string;
  owner_id: string;
  name: string;
}

export async function startStories(
  env: Record<string, string> = {},
  options: AppOptions & { natsUrl?: string } = {},
) {
  const prefix = uniqueName('st').toLowerCase();
  const dbs: TestDatabase[] = await Promise.all([
    createTestDatabase('st_sessions'),
    createTestDatabase('stories'),
  ]);
  const [sessionsDb, storiesDb] = dbs as [TestDatabase, TestDatabase];
  // The stories service reaches its database through a proxy a test can cut (the database going away).
  const storiesDbUrl = new URL(storiesDb.url);
  const storiesDatabase = await startTcpProxy({
    host: storiesDbUrl.hostname,
    port: Number(storiesDbUrl.port || 5432),
  });
  storiesDbUrl.hostname = '127.0.0.1';
  storiesDbUrl.port = String(storiesDatabase.port);
  // The sessions service reaches the stories service (which starts after it) through a proxy too.
  const toStories = await startTcpProxy({ host: '127.0.0.1', port: 9 });
  const common = {
    NATS_URL: options.natsUrl ?? testNatsUrl(),
    INTERNAL_SIGNING_KEY: KEY,
    EVENTS_PREFIX: prefix,
    PORT: '0',
  };
  const committedRounds = new CommittedRounds();
  const sessions: StartedService = await startService(
    {
      ...sessionsDefinition(
        readSessionsConfig({ ...common, DATABASE_URL: sessionsDb.url, STORIES_URL: toStories.url }),
        { committedRounds },
      ),
      host: '127.0.0.1',
    },
    logger,
  );
  let afterRound: (() => void | Promise<void>) | undefined;
  const recorder = await startRoundRobinProxy([sessions.server.url], {
    beforeAnswer: async (request, status) => {
      if (!/^PUT \/internal\/sessions\/[^/]+\/round$/.test(request) || status !== 200 || !afterRound) return;
      const act = afterRound;
      afterRound = undefined;
      await act();
    },
  });
  const betweenUnits = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(recorder.url).port) });
  const config: Config = readConfig({
    ...common,
    DATABASE_URL: storiesDbUrl.toString(),
    SESSIONS_URL: betweenUnits.url,
    VOTE_BY_POLL_MS: '100',
    ...env,
  });
  const def = { ...definition(config, options), host: '127.0.0.1' };
  const start = async () => {
    const started = await startService(def, logger);
    toStories.retarget({ host: '127.0.0.1', port: Number(new URL(started.server.url).port) });
    return started;
  };
  let service: StartedService = await start();
  const { nc, bus } = sessions.runtime;
  const published: EventEnvelope[] = [];
  const sub = nc.subscribe(`${prefix}.story.>`, {
    callback: (_err, msg) => {
      published.push(msg.json<EventEnvelope>());
    },
  });
  const sessionsApi = api(sessions.server.url, { identityFor: { unit: 'sessions', key: KEY } });
  const client = api(() => service.server.url);

  const readModel = async (sessionId: string) => {
    const found = (await service.runtime.db
      .fork()
      .getConnection()
      .execute('select * from sessions where id = ?', [sessionId])) as Array<Record<string, unknown>>;
    return found[0];
  };
  const join = async (code: string, name: string) => {
    const res = await sessionsApi.post(`/sessions/${code}/join`, { body: { name } });
    if (res.status !== 200) throw new Error(`join answered ${res.status}: ${res.text}`);
    return res.body.participant.id as number;
  };
  const vote = (code: string, participantId: number, value: string) =>
    sessionsApi.post(`/sessions/${code}/vote`, { body: { participant_id: participantId, vote: value } });

  const harness = {
    config,
    prefix,
    /** The stories service's events, as published. */
    published,
    client,
    sessionsApi,
    betweenUnits,
    /** The stories service's way to its database. */
    storiesDatabase,
    /**
     * Runs `act` once the sessions service has applied the next round command, before the stories
     * service gets the answer (between the two steps of a change).
     */
    afterNextRound(act: () => void | Promise<void>) {
      afterRound = act;
    },
    get service() {
      return service;
    },
    sessionsRuntime: sessions.runtime,
    /**
     * A session created in the sessions service by a new owner, with these settings; resolves once
     * the stories service's read model has it (unless `announced` is false: created, not waited for).
     */
    async session(settings: Record<string, unknown> = {}, announced = true): Promise<TestSession> {
      const owner = randomUUID();
      const res = await sessionsApi.post('/sessions', {
        body: { name: 'Sprint 42', ...settings },
        ...as(owner),
      });
      if (res.status !== 201) throw new Error(`create session answered ${res.status}: ${res.text}`);
      const session = { ...res.body.session, owner_id: owner } as TestSession;
      if (announced) await until(() => readModel(session.id));
      return session;
    },
    /** Adds stories in order (the first one current); their ids. */
    async stories(session: TestSession, titles: string[]) {
      const ids: string[] = [];
      for (const title of titles) {
        const res = await client.post(`/sessions/${session.code}/stories`, {
          body: { title },
          ...as(session.owner_id),
        });
        if (res.status !== 201) throw new Error(`add story answered ${res.status}: ${res.text}`);
        ids.push(res.body.story.id);
      }
      return ids;
    },
    join,
    vote,
    /** Voters named `Voter 1`, `Voter 2`… join and vote these cards on the current story; their ids. */
    async castVotes(session: TestSession, values: string[], names = values.map((_, i) => `Voter ${i + 1}`)) {
      const ids: number[] = [];
      for (const [i, value] of values.entries()) {
        const id = await join(session.code, names[i]!);
        const res = await vote(session.code, id, value);
        if (res.status !== 200) throw new Error(`vote answered ${res.status}: ${res.text}`);
        ids.push(id);
      }
      return ids;
    },
    /**
     * Whether the sessions service takes votes on the story's round without asking the stories
     * service (the change that opened it is known committed).
     */
    /**
     * Whether the sessions unit takes votes on the story's round without asking: confirmed in its table,
     * or the change that opened it seen committed on its live feed.
     */
    roundConfirmed: async (storyId: string) => {
      const [found] = (await sessions.runtime.db
        .fork()
        .getConnection()
        .execute('select session_id, unconfirmed_version from rounds where id = ?', [storyId])) as Array<{
        session_id: string;
        unconfirmed_version: number | null;
      }>;
      if (!found) return false;
      const seen = committedRounds.through(found.session_id);
      return found.unconfirmed_version === null || (seen !== undefined && seen >= found.unconfirmed_version);
    },
    /** The id of the current story in the public session lookup, as the sessions service shows it. */
    currentStory: async (code: string) =>
      ((await sessionsApi.get(`/sessions/${code}`)).body.session?.current_story?.id ?? null) as string | null,
    /** The whole current story of the public session lookup (id, title, status, position), or null. */
    lookupCurrent: async (code: string) =>
      (await sessionsApi.get(`/sessions/${code}`)).body.session?.current_story,
    /** How many calls the stories service made to the sessions service, of those matching. */
    sessionsCalls: (pattern: RegExp) => recorder.seen.filter((r) => pattern.test(r)).length,
    readModel,
    /** The session as the sessions service describes it to other units (what session.* events carry). */
    async snapshot(sessionId: string): Promise<SessionSnapshot> {
      const res = await sessionsApi.get(`/internal/sessions/${sessionId}`, {
        headers: {
          [IDENTITY_HEADER]: signIdentity(KEY, {
            sub: 'stories',
            kind: 'service',
            iss: 'stories',
            aud: 'sessions',
          }),
        },
      });
      return res.body.session;
    },
    /** Publishes an event on this harness's prefix, as another unit would. */
    async publish<T extends EventType>(type: T, data: EventData<T>) {
      const event = makeEvent(type, data, { source: 'sessions' });
      await jetstream(nc).publish(subjectFor(bus, type, data), JSON.stringify(event), { msgID: event.id });
      return event;
    },
    /** Waits for an event the stories service published. */
    event: <T extends EventType>(type: T, match: (data: EventData<T>) => boolean = () => true) =>
      until(
        async () =>
          published.find((e) => e.type === type && match(e.data as EventData<T>)) as
            EventEnvelope<EventData<T>> | undefined,
      ),
    async stopStories() {
      await service.stop();
    },
    async startStories() {
      service = await start();
    },
    async restart() {
      await service.stop();
      service = await start();
    },
    async stop() {
      sub.unsubscribe();
      await stopInSteps('stories harness', [
        [
          'the stories unit',
          () => service.stop({ onSlowStep: slowStepOnStderr('stories harness: the stories unit') }),
        ],
        ['the proxy between the units', () => betweenUnits.close()],
        ['the recording proxy', () => recorder.close()],
        ['the proxy to the stories unit', () => toStories.close()],
        ["the proxy to the stories unit's database", () => storiesDatabase.close()],
        ['the streams', () => deleteBusStreams(nc, bus)],
        [
          'the sessions unit',
          () => sessions.stop({ onSlowStep: slowStepOnStderr('stories harness: the sessions unit') }),
        ],
        ['the databases', () => Promise.all(dbs.map((d) => d.drop()))],
      ]);
    },
  };
  return harness;
}

export type StoriesHarness = Awaited<ReturnType<typeof startStories>>;
