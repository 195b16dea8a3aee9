/**
 * End to end: the REAL sessions service and the stories service, in process, on one event prefix.
 * (Only the end-to-end tests import another unit's code: production code never does.)
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { startService, type ServiceDefinition, type StartedService } from '@pp/runtime';
import { api, createTestDatabase, testNatsUrl, uniqueName, type TestDatabase } from '@pp/testing';
import { readConfig as readSessionsConfig } from '../../../sessions/src/config.ts';
import { sessionsService } from '../../../sessions/src/service.ts';
import { definition } from '../../src/app.ts';
import { readConfig } from '../../src/config.ts';
import { as, KEY, logger, until } from './stories-harness.ts';

export async function startEndToEnd(options: { natsUrl?: string } = {}) {
  const prefix = uniqueName('e2e').toLowerCase();
  const dbs: TestDatabase[] = await Promise.all([
    createTestDatabase('e2e_sessions'),
    createTestDatabase('e2e_stories'),
  ]);
  const [sessionsDb, storiesDb] = dbs as [TestDatabase, TestDatabase];
  const common = {
    NATS_URL: options.natsUrl ?? testNatsUrl(),
    INTERNAL_SIGNING_KEY: KEY,
    EVENTS_PREFIX: prefix,
    PORT: '0',
  };
  const sessions: StartedService = await startService(
    {
      ...sessionsService(readSessionsConfig({ ...common, DATABASE_URL: sessionsDb.url })),
      host: '127.0.0.1',
    },
    logger,
  );
  const storiesDef: ServiceDefinition = {
    ...definition(readConfig({ ...common, DATABASE_URL: storiesDb.url, SESSIONS_URL: sessions.server.url })),
    host: '127.0.0.1',
  };
  let stories: StartedService = await startService(storiesDef, logger);
  const sessionsApi = api(() => sessions.server.url);
  const storiesApi = api(() => stories.server.url);

  const createSession = async (owner: string, body: Record<string, unknown> = {}) => {
    const res = await sessionsApi.post('/sessions', { body: { name: 'Sprint', ...body }, ...as(owner) });
    expect(res.status).toBe(201);
    return res.body.session as { id: string; code: string };
  };
  const addStory = async (code: string, owner: string, title: string) => {
    const res = await storiesApi.post(`/sessions/${code}/stories`, { body: { title }, ...as(owner) });
    expect(res.status).toBe(201);
    return res.body.story.id as string;
  };
  const join = async (code: string, name: string) => {
    const res = await sessionsApi.post(`/sessions/${code}/join`, { body: { name } });
    expect(res.status).toBe(200);
    return res.body.participant.id as number;
  };
  const vote = (code: string, participantId: number, value: string) =>
    sessionsApi.post(`/sessions/${code}/vote`, { body: { participant_id: participantId, vote: value } });
  /** Until the sessions service shows the story as the current one (it learns of it by events). */
  const currentStory = (code: string, storyId: string, timeoutMs = 15_000) =>
    until(
      async () => (await sessionsApi.get(`/sessions/${code}`)).body.session?.current_story?.id === storyId,
      timeoutMs,
    );

  /** A session with stories (in order: the first one current) and voters joined. */
  const room = async (
    owner: string,
    body: Record<string, unknown>,
    titles: string[],
    voterNames: string[],
  ) => {
    const session = await createSession(owner, body);
    const stories: string[] = [];
    for (const title of titles) stories.push(await addStory(session.code, owner, title));
    const voters: number[] = [];
    for (const name of voterNames) voters.push(await join(session.code, name));
    await currentStory(session.code, stories[0]!);
    return { session, stories, voters };
  };

  return {
    sessionsApi,
    room,
    storiesApi,
    createSession,
    addStory,
    join,
    vote,
    currentStory,
    stopStories: () => stories.stop(),
    startStories: async () => {
      stories = await startService(storiesDef, logger);
    },
    async stop() {
      await stories.stop();
      const jsm = await jetstreamManager(sessions.runtime.nc);
      for (const stream of [sessions.runtime.bus.stream, sessions.runtime.bus.deadLetterStream]) {
        await jsm.streams.delete(stream).catch(() => undefined);
      }
      await sessions.stop();
      await Promise.all(dbs.map((d) => d.drop()));
    },
  };
}

export type EndToEnd = Awaited<ReturnType<typeof startEndToEnd>>;
