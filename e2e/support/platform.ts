/**
 * The platform in this process for end-to-end tests: identity, sessions and stories (one or more
 * replicas each, behind a round-robin proxy as their URL), integrations, ai and webhooks when asked
 * for, and the real gateway in front, on fresh
 * databases and an event prefix of their own. Only tests put units together like this.
 */
import { createApiClient } from '@pp/api-client';
import { connectNats, deleteBusStreams, eventBus } from '@pp/events';
import { createLogger } from '@pp/logger';
import { startService, type ServiceDefinition, type StartedService } from '@pp/runtime';
import {
  createTestDatabase,
  openStream,
  startApp,
  startRoundRobinProxy,
  startTcpProxy,
  slowStepOnStderr,
  stopInSteps,
  testNatsUrl,
  uniqueName,
  type TcpProxy,
  type TestDatabase,
} from '@pp/testing';
import { apiDocuments, createApp as createGateway } from '../../gateway/src/app.ts';
import { TokenCache } from '../../gateway/src/auth/token-cache.ts';
import { publicApi } from './public-api.ts';
import { readConfig as readGatewayConfig } from '../../gateway/src/config.ts';
import { definition as ai } from '../../services/ai/src/app.ts';
import { readConfig as readAiConfig } from '../../services/ai/src/config.ts';
import { definition as identity } from '../../services/identity/src/app.ts';
import { definition as integrations } from '../../services/integrations/src/app.ts';
import { readConfig as readIntegrationsConfig } from '../../services/integrations/src/config.ts';
import { readConfig as readIdentityConfig } from '../../services/identity/src/config.ts';
import { definition as sessions } from '../../services/sessions/src/app.ts';
import { readConfig as readSessionsConfig } from '../../services/sessions/src/config.ts';
import { definition as stories } from '../../services/stories/src/app.ts';
import { readConfig as readStoriesConfig } from '../../services/stories/src/config.ts';
import { definition as webhooks } from '../../services/webhooks/src/app.ts';
import { readConfig as readWebhooksConfig } from '../../services/webhooks/src/config.ts';

/** The internal signing key of the units started here (for a unit a test starts beside them). */
export const KEY = 'internal-signing-key-for-platform-tests-0123456789';
const logger = createLogger({ name: 'platform-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** A call's headers as the holder of this access token (the typed client's `headers` option). */
export const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

export interface PlatformOptions {
  /** Replicas of the sessions and the stories units (1 by default). */
  replicas?: number;
  /** Extra settings of the stories unit (timeouts of its calls, the round sync's pace). */
  storiesEnv?: Record<string, string>;
  /** Extra settings of the sessions unit (the timeout of its calls to the stories unit, ...). */
  sessionsEnv?: Record<string, string>;
  /** A TCP proxy between the stories unit and the sessions unit, to cut or mute in a test. */
  proxyBetweenUnits?: boolean;
  /** Extra settings of the gateway (where more units listen, e.g. MCP_URL). */
  gatewayEnv?: Record<string, string>;
  /** Start the integrations unit too, with these extra settings (private tracker addresses allowed, for local fakes). */
  integrationsEnv?: Record<string, string>;
  /** Start the ai unit too (the built-in engine unless these settings name a model). */
  aiEnv?: Record<string, string>;
  /** Start the webhooks unit too, with these extra settings (local endpoints allowed). */
  webhooksEnv?: Record<string, string>;
}

async function replicas(count: number, def: ServiceDefinition) {
  const started: StartedService[] = [];
  for (let i = 0; i < count; i++) started.push(await startService({ ...def, host: '127.0.0.1' }, logger));
  const proxy = count > 1 ? await startRoundRobinProxy(started.map((s) => s.server.url)) : undefined;
  return { started, url: proxy?.url ?? started[0]!.server.url, proxy };
}

export async function startPlatform(options: PlatformOptions = {}) {
  const count = options.replicas ?? 1;
  const prefix = uniqueName('pf').toLowerCase();
  const dbs: TestDatabase[] = await Promise.all(
    ['pf_identity', 'pf_sessions', 'pf_stories'].map((name) => createTestDatabase(name)),
  );
  const [identityDb, sessionsDb, storiesDb] = dbs as [TestDatabase, TestDatabase, TestDatabase];
  const common = { NATS_URL: testNatsUrl(), INTERNAL_SIGNING_KEY: KEY, EVENTS_PREFIX: prefix, PORT: '0' };

  const identityUnit = await replicas(
    1,
    identity(
      readIdentityConfig({
        ...common,
        DATABASE_URL: identityDb.url,
        TOKEN_SIGNING_KEY: 'token-signing-key-for-platform-tests-0123456789',
      }),
    ),
  );
  // The sessions unit calls the stories unit (a template's stories), which starts after it: through a
  // TCP proxy pointed at it once it listens, which a test can also cut.
  const toStories = await startTcpProxy({ host: '127.0.0.1', port: 1 });
  const sessionsUnit = await replicas(
    count,
    sessions(
      readSessionsConfig({
        ...common,
        DATABASE_URL: sessionsDb.url,
        STORIES_URL: toStories.url,
        ...options.sessionsEnv,
      }),
    ),
  );
  let betweenUnits: TcpProxy | undefined;
  if (options.proxyBetweenUnits) {
    const target = new URL(sessionsUnit.url);
    betweenUnits = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
  }
  const storiesUnit = await replicas(
    count,
    stories(
      readStoriesConfig({
        ...common,
        DATABASE_URL: storiesDb.url,
        SESSIONS_URL: betweenUnits?.url ?? sessionsUnit.url,
        ...options.storiesEnv,
      }),
    ),
  );
  toStories.retarget({ host: '127.0.0.1', port: Number(new URL(storiesUnit.url).port) });
  const urls = { sessions: sessionsUnit.url, stories: storiesUnit.url };
  const beside = <C>(
    name: string,
    unit: Parameters<typeof startBeside<C>>[1],
    env: Record<string, string> | undefined,
  ) => (env ? startBeside(name, unit, common, urls, env, dbs) : undefined);
  const integrationsUnit = await beside(
    'integrations',
    { readConfig: readIntegrationsConfig, definition: integrations },
    options.integrationsEnv,
  );
  const aiUnit = await beside('ai', { readConfig: readAiConfig, definition: ai }, options.aiEnv);
  const webhooksUnit = await beside(
    'webhooks',
    { readConfig: readWebhooksConfig, definition: (c) => webhooks(c) },
    options.webhooksEnv,
  );
  const gatewayConfig = readGatewayConfig({
    INTERNAL_SIGNING_KEY: KEY,
    NATS_URL: testNatsUrl(),
    RATE_LIMIT_PER_MINUTE: '1000000',
    IDENTITY_URL: identityUnit.url,
    SESSIONS_URL: sessionsUnit.url,
    STORIES_URL: storiesUnit.url,
    ...(integrationsUnit ? { INTEGRATIONS_URL: integrationsUnit.url } : {}),
    ...(aiUnit ? { AI_URL: aiUnit.url } : {}),
    ...(webhooksUnit ? { WEBHOOKS_URL: webhooksUnit.url } : {}),
    ...options.gatewayEnv,
  });
  // Asked of the units in the background until the platform stops (else a later test's server on one
  // of their ports would be asked).
  const documents = apiDocuments(gatewayConfig, logger);
  const gateway = await startApp(
    createGateway({
      config: gatewayConfig,
      logger,
      tokenCache: new TokenCache({ positiveTtlMs: 30_000, negativeTtlMs: 5_000 }),
      documents,
    }),
  );
  const client = publicApi(gateway.url);
  const units = Object.entries({
    identity: identityUnit,
    sessions: sessionsUnit,
    stories: storiesUnit,
    integrations: integrationsUnit,
    ai: aiUnit,
    webhooks: webhooksUnit,
  }).filter((entry): entry is [string, NonNullable<(typeof entry)[1]>] => entry[1] !== undefined);

  let users = 0;
  return {
    url: gateway.url,
    /** The event bus's subject prefix of this platform (`<prefix>.<type>`). */
    prefix,
    client,
    /** The API's typed client (libs/api-client), on the gateway: calls as a client of the public API makes them. */
    api: createApiClient(gateway.url),
    /** Where each unit started here listens (for a unit a test starts beside them). */
    unitUrls: {
      identity: identityUnit.url,
      sessions: sessionsUnit.url,
      stories: storiesUnit.url,
      integrations: integrationsUnit?.url,
      ai: aiUnit?.url,
      webhooks: webhooksUnit?.url,
    },
    /** Where each replica of the sessions unit listens itself (not through the round-robin proxy). */
    sessionsReplicas: sessionsUnit.started.map((s) => s.server.url),
    /** The connection the stories unit calls the sessions unit through (with proxyBetweenUnits). */
    betweenUnits,
    /** The connection the sessions unit calls the stories unit through. */
    toStories,
    /** A new account; its access token. */
    async signUp(name = `User ${++users}`) {
      const res = await client.post('/auth/register', {
        body: {
          email: `${uniqueName('u').toLowerCase()}@example.com`,
          password: 'correct horse battery',
          name,
        },
      });
      if (res.status !== 201) throw new Error(`register answered ${res.status}: ${res.text}`);
      return res.body.token as string;
    },
    /** The live room of a session, through the gateway. */
    room: (code: string, headers: Record<string, string> = {}) =>
      openStream(`${gateway.url}/sessions/${code}/events`, headers),
    async stop() {
      documents.stop();
      gateway.server.closeAllConnections();
      // The units in the reverse order of their start: a unit's consumers may still call those before it.
      const unitSteps = [...units].reverse().flatMap(([name, unit]) => [
        ...unit.started.map((s, i) => {
          const what = `the ${name} unit (replica ${i + 1})`;
          return [what, () => s.stop({ onSlowStep: slowStepOnStderr(`platform: ${what}`) })] as const;
        }),
        [`the proxy to the ${name} unit`, () => unit.proxy?.close()] as const,
      ]);
      await stopInSteps('platform', [
        ['the gateway', () => gateway.close()],
        ...unitSteps,
        ['the proxy between the units', () => betweenUnits?.close()],
        ['the proxy to the stories unit', () => toStories.close()],
        ['the streams', () => dropStreams(prefix)],
        ['the databases', () => Promise.all(dbs.map((d) => d.drop()))],
      ]);
    },
  };
}

/**
 * A unit beside the core ones (integrations, ai, webhooks), on the platform's bus and a database of
 * its own, calling its sessions and stories units; local addresses are allowed for its outbound calls
 * (to local fakes).
 */
async function startBeside<C>(
  name: string,
  unit: { readConfig: (env: Record<string, string>) => C; definition: (config: C) => ServiceDefinition },
  common: Record<string, string>,
  urls: { sessions: string; stories: string },
  env: Record<string, string>,
  dbs: TestDatabase[],
) {
  const db = await createTestDatabase(`pf_${name}`);
  dbs.push(db);
  const config = unit.readConfig({
    ...common,
    DATABASE_URL: db.url,
    SESSIONS_URL: urls.sessions,
    STORIES_URL: urls.stories,
    CREDENTIALS_ENCRYPTION_KEY: 'credentials-key-for-platform-tests-0123456789',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    ...env,
  });
  return replicas(1, unit.definition(config));
}

/** The event streams of a platform's prefix go with it. */
async function dropStreams(prefix: string) {
  const nc = await connectNats({ url: testNatsUrl(), name: 'platform-cleanup', logger });
  await deleteBusStreams(nc, eventBus(prefix));
  await nc.close();
}

export type Platform = Awaited<ReturnType<typeof startPlatform>>;
