import type { Express } from 'express';
import { createRuntimeApp, type ServiceDefinition, type ServiceRuntime } from '@pp/runtime';
import { storiesApi } from './api/docs.ts';
import { consumers, RETIRED_PARTICIPANTS_CONSUMER, tasks } from './background/index.ts';
import { createSessionsClient, type SessionsClient } from './clients/sessions.client.ts';
import type { Config } from './config.ts';
import { entities } from './db/entities/index.ts';
import { migrations } from './db/migrations/index.ts';
import { internalReadRoutes } from './routes/internal-reads.routes.ts';
import { internalRoutes } from './routes/internal.routes.ts';
import { sessionStoriesRoutes } from './routes/session-stories.routes.ts';
import { storiesRoutes } from './routes/stories.routes.ts';
import type { ContextFactory } from './use-cases/shared/context.ts';
import { SessionTurns } from './use-cases/shared/session-turns.ts';

export interface AppOptions {
  /** A clock for tests; the real one by default. */
  now?: () => Date;
}

/** The stories service's HTTP API: stories, reveals, consensus, export. Never listens by itself. */
export function createApp(config: Config, runtime: ServiceRuntime, context: ContextFactory): Express {
  const deps = { context: () => context(runtime.db.em()) };
  return createRuntimeApp(
    runtime,
    config.INTERNAL_SIGNING_KEY,
    (app) => {
      app.use(sessionStoriesRoutes(deps));
      app.use(storiesRoutes(deps));
      app.use(internalRoutes(deps));
      app.use(internalReadRoutes(deps));
    },
    storiesApi,
    // A batch of stories comes in one body: a session template's 100, an import's 1,000.
    { bodyLimit: '2mb', maxBodyEntries: 100_000 },
  );
}

/** The stories service as libs/runtime runs it (main.ts and the tests). */
export function definition(config: Config, options: AppOptions = {}): ServiceDefinition {
  const now = options.now ?? (() => new Date());
  let sessions: SessionsClient | undefined;
  const turns = new SessionTurns();
  const contextFor =
    (runtime: ServiceRuntime): ContextFactory =>
    (em) => ({
      em,
      sessions: (sessions ??= createSessionsClient({
        baseURL: config.SESSIONS_URL,
        signingKey: config.INTERNAL_SIGNING_KEY,
        logger: runtime.logger,
        timeoutMs: config.SESSIONS_TIMEOUT_MS,
      })),
      now,
      logger: runtime.logger,
      publish: () => runtime.relay.kick(),
      turns,
    });
  return {
    name: 'stories',
    config,
    entities,
    migrations,
    createApp: (runtime) => createApp(config, runtime, contextFor(runtime)),
    consumers: (runtime) => consumers(runtime, contextFor(runtime)),
    retiredConsumers: [RETIRED_PARTICIPANTS_CONSUMER],
    background: (runtime) => tasks(runtime, config, contextFor(runtime), now),
  };
}
