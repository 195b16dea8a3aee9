import type { Express } from 'express';
import { oauthStateSigner } from '@pp/http';
import { createOutboundClient } from '@pp/outbound';
import { createRuntimeApp, type ServiceDefinition, type ServiceRuntime } from '@pp/runtime';
import { integrationsApi } from './api/docs.ts';
import { consumers, tasks } from './background/index.ts';
import { createOAuthClient } from './clients/oauth.client.ts';
import { createAdapters } from './clients/providers/index.ts';
import { createProviderKit } from './clients/providers/provider-http.ts';
import { createUnitsClient } from './clients/units.client.ts';
import type { Config } from './config.ts';
import { entities } from './db/entities/index.ts';
import { migrations } from './db/migrations/index.ts';
import { createCredentialsCipher } from './domain/credentials-cipher.ts';
import { oauthApps } from './domain/oauth.ts';
import { connectionsRoutes } from './routes/connections.routes.ts';
import { importsRoutes } from './routes/imports.routes.ts';
import { oauthRoutes } from './routes/oauth.routes.ts';
import type { ContextFactory } from './use-cases/shared/context.ts';

/** The integrations unit's HTTP API: providers, connections, OAuth, imports and syncs. Never listens by itself. */
export function createApp(config: Config, runtime: ServiceRuntime, context: ContextFactory): Express {
  const deps = { context: () => context(runtime.db.em()) };
  return createRuntimeApp(
    runtime,
    config.INTERNAL_SIGNING_KEY,
    (app) => {
      app.use(connectionsRoutes(deps));
      app.use(oauthRoutes(deps));
      app.use(importsRoutes(deps));
    },
    integrationsApi,
    // A CSV of 1,000 rows, and its preview items sent back to import (up to 1,000 issues of a few
    // fields and up to 50 labels each), take more than the default 256 kB and 10,000 values.
    { bodyLimit: '1mb', maxBodyEntries: 100_000 },
  );
}

/** The context of every use case: the tracker adapters, the cipher, the other units (made once per process). */
function contextFactory(config: Config, runtime: ServiceRuntime, now: () => Date): ContextFactory {
  const outbound = { allowPrivate: config.OUTBOUND_ALLOW_PRIVATE };
  const client = createOutboundClient({
    ...outbound,
    timeoutMs: config.PROVIDER_TIMEOUT_MS,
    maxResponseBytes: config.PROVIDER_MAX_RESPONSE_BYTES,
  });
  const kit = createProviderKit({
    outbound: client,
    logger: runtime.logger,
    maxRetryWaitMs: config.PROVIDER_MAX_RETRY_WAIT_MS,
  });
  const shared = {
    units: createUnitsClient({
      sessionsUrl: config.SESSIONS_URL,
      storiesUrl: config.STORIES_URL,
      signingKey: config.INTERNAL_SIGNING_KEY,
      logger: runtime.logger,
      timeoutMs: config.UNITS_TIMEOUT_MS,
    }),
    adapters: createAdapters(kit, config),
    cipher: createCredentialsCipher(
      config.CREDENTIALS_ENCRYPTION_KEY,
      config.CREDENTIALS_ENCRYPTION_PREVIOUS_KEYS.split(',').map((k) => k.trim()),
    ),
    outbound,
    oauth: createOAuthClient(client),
    refreshes: new Map(),
    oauthApps: oauthApps(config),
    states: oauthStateSigner(config.CREDENTIALS_ENCRYPTION_KEY, 'pp-integrations'),
    publicBaseUrl: config.PUBLIC_BASE_URL,
    stateTtlSeconds: config.OAUTH_STATE_TTL_SECONDS,
    jiraCloudApiUrl: config.JIRA_CLOUD_API_URL,
    publish: () => runtime.relay.kick(),
    now,
    logger: runtime.logger,
  };
  return (em) => ({ ...shared, em });
}

/** The integrations unit as libs/runtime runs it (main.ts and the tests). */
export function definition(config: Config, options: { now?: () => Date } = {}): ServiceDefinition {
  const now = options.now ?? (() => new Date());
  let context: ContextFactory | undefined;
  const contextFor = (runtime: ServiceRuntime) => (context ??= contextFactory(config, runtime, now));
  return {
    name: 'integrations',
    config,
    entities,
    migrations,
    createApp: (runtime) => createApp(config, runtime, contextFor(runtime)),
    consumers: (runtime) => consumers(runtime, contextFor(runtime)),
    background: (runtime) => tasks(runtime, contextFor(runtime)),
  };
}
