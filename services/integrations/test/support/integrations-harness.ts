/**
 * The integrations unit in process on a fresh database and an event prefix of its own, with the REAL
 * sessions and stories units beside it (the owners of sessions and stories, which imports and syncs
 * go through). Callers act as users with signed identity headers, as the gateway forwards them.
 */
import { randomUUID } from 'node:crypto';
import { connectNats, deleteBusStreams } from '@pp/events';
import { IDENTITY_HEADER, signIdentity } from '@pp/http';
import { createLogger } from '@pp/logger';
import { startService, type StartedService } from '@pp/runtime';
import { api, createTestDatabase, testNatsUrl, uniqueName, until, type TestDatabase } from '@pp/testing';
import { definition as sessionsDefinition } from '../../../sessions/src/app.ts';
import { readConfig as readSessionsConfig } from '../../../sessions/src/config.ts';
import { definition as storiesDefinition } from '../../../stories/src/app.ts';
import { readConfig as readStoriesConfig } from '../../../stories/src/config.ts';
import { definition } from '../../src/app.ts';
import { readConfig } from '../../src/config.ts';

export { until };

export const KEY = 'internal-signing-key-for-integrations-tests-0123';
export const ENCRYPTION_KEY = 'credentials-key-for-integrations-tests-0123456789';
const logger = createLogger({ name: 'integrations-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** Headers of a signed-in user, as the gateway forwards them. */
export const as = (userId: string) => ({
  headers: {
    [IDENTITY_HEADER]: signIdentity(KEY, {
      sub: userId,
      kind: 'user',
      name: 'Owner',
      iss: 'gateway',
      aud: 'integrations',
    }),
  },
});

export async function startIntegrations(
  env: Record<string, string> = {},
  /** Where the units' log lines go (JSON, level info and up), for tests of what is logged; nowhere by default. */
  logLines?: string[],
) {
  const log = logLines
    ? createLogger({ name: 'integrations-test', destination: { write: (l: string) => logLines.push(l) } })
    : logger;
  const prefix = uniqueName('in').toLowerCase();
  const dbs: TestDatabase[] = await Promise.all(
    ['in_sessions', 'in_stories', 'integrations'].map(createTestDatabase),
  );
  const [sessionsDb, storiesDb, integrationsDb] = dbs as [TestDatabase, TestDatabase, TestDatabase];
  const common = { NATS_URL: testNatsUrl(), INTERNAL_SIGNING_KEY: KEY, EVENTS_PREFIX: prefix, PORT: '0' };
  const start = (def: Parameters<typeof startService>[0]) => startService({ ...def, host: '127.0.0.1' }, log);
  const sessions = await start(
    sessionsDefinition(readSessionsConfig({ ...common, DATABASE_URL: sessionsDb.url })),
  );
  const stories = await start(
    storiesDefinition(
      readStoriesConfig({ ...common, DATABASE_URL: storiesDb.url, SESSIONS_URL: sessions.server.url }),
    ),
  );
  const config = readConfig({
    ...common,
    DATABASE_URL: integrationsDb.url,
    SESSIONS_URL: sessions.server.url,
    STORIES_URL: stories.server.url,
    CREDENTIALS_ENCRYPTION_KEY: ENCRYPTION_KEY,
    OUTBOUND_ALLOW_PRIVATE: 'true',
    PROVIDER_MAX_RETRY_WAIT_MS: '2000',
    ...env,
  });
  const integrations: StartedService = await start(definition(config));
  const replicas: StartedService[] = [];
  const client = api(integrations.server.url);
  const sessionsApi = api(sessions.server.url, { identityFor: { unit: 'sessions', key: KEY } });
  const storiesApi = api(stories.server.url, { identityFor: { unit: 'stories', key: KEY } });

  return {
    url: integrations.server.url,
    client,
    /** Another replica of the integrations unit, on the same database and events. */
    async replica() {
      const replica = await start(definition(config));
      replicas.push(replica);
      return api(replica.server.url);
    },
    storiesApi,
    runtime: integrations.runtime,
    /** Rows of the integrations unit's own database. */
    sql: (text: string, params: unknown[] = []) =>
      integrations.runtime.db.fork().getConnection().execute(text, params, 'all') as Promise<
        Array<Record<string, unknown>>
      >,
    /** A session of a new owner; its code, id and owner. */
    async session() {
      const owner = randomUUID();
      const res = await sessionsApi.post('/sessions', { body: { name: 'Sprint' }, ...as(owner) });
      if (res.status !== 201) throw new Error(`create session answered ${res.status}: ${res.text}`);
      return { code: res.body.session.code as string, id: res.body.session.id as string, owner };
    },
    /** Every participant votes this card on the current story, and the owner reveals it. */
    async reveal(session: { code: string; owner: string }, storyId: string, card: string) {
      const joined = await sessionsApi.post(`/sessions/${session.code}/join`, {
        body: { name: `Voter ${randomUUID()}` },
      });
      await sessionsApi.post(`/sessions/${session.code}/vote`, {
        body: { participant_id: joined.body.participant.id, vote: card },
        headers: { 'x-participant-token': joined.body.participant.token ?? '' },
      });
      const res = await storiesApi.post(`/stories/${storyId}/reveal`, as(session.owner));
      if (res.status !== 200) throw new Error(`reveal answered ${res.status}: ${res.text}`);
      return res.body.story;
    },
    async stop() {
      for (const s of [...replicas, integrations, stories, sessions]) await s.stop();
      const cleanup = await connectNats({ url: testNatsUrl(), name: 'cleanup', logger });
      await deleteBusStreams(cleanup, integrations.runtime.bus);
      await cleanup.close();
      await Promise.all(dbs.map((d) => d.drop()));
    },
  };
}

export type IntegrationsHarness = Awaited<ReturnType<typeof startIntegrations>>;
