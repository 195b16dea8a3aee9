import type { Express } from 'express';
import { createSessionsClient } from '@pp/http-client';
import { createRuntimeApp, type ServiceDefinition, type ServiceRuntime } from '@pp/runtime';
import { aiApi } from './api/docs.ts';
import { consumers, RETIRED_STORY_CONSUMER, tasks } from './background/index.ts';
import { createModelClient, type ModelClient } from './clients/model.client.ts';
import { createStoriesClient } from './clients/stories.client.ts';
import type { Config } from './config.ts';
import { entities } from './db/entities/index.ts';
import { migrations } from './db/migrations/index.ts';
import { suggestionsRoutes } from './routes/suggestions.routes.ts';
import type { ContextFactory } from './use-cases/shared/context.ts';

/** The assistant's HTTP API: eight suggestion endpoints under a session. Never listens by itself. */
export function createApp(config: Config, runtime: ServiceRuntime, context: ContextFactory): Express {
  const deps = { context: () => context(runtime.db.em()) };
  return createRuntimeApp(
    runtime,
    config.INTERNAL_SIGNING_KEY,
    (app) => app.use(suggestionsRoutes(deps)),
    aiApi,
  );
}

/** The ai unit as libs/runtime runs it (main.ts and the tests). */
export function definition(config: Config): ServiceDefinition {
  let clients: Omit<ReturnType<ContextFactory>, 'em'> | undefined;
  const contextFor =
    (runtime: ServiceRuntime): ContextFactory =>
    (em) => {
      clients ??= {
        sessions: createSessionsClient({
          caller: 'ai',
          baseURL: config.SESSIONS_URL,
          signingKey: config.INTERNAL_SIGNING_KEY,
          logger: runtime.logger,
          timeoutMs: config.UNITS_TIMEOUT_MS,
        }),
        stories: createStoriesClient({
          baseURL: config.STORIES_URL,
          signingKey: config.INTERNAL_SIGNING_KEY,
          logger: runtime.logger,
          timeoutMs: config.UNITS_TIMEOUT_MS,
        }),
        model: modelOf(config, runtime),
        budgetPerHour: config.AI_USER_BUDGET_PER_HOUR,
        logger: runtime.logger,
      };
      return { em, ...clients };
    };
  return {
    name: 'ai',
    config,
    entities,
    migrations,
    createApp: (runtime) => createApp(config, runtime, contextFor(runtime)),
    consumers: (runtime) => consumers(runtime, contextFor(runtime)),
    retiredConsumers: [RETIRED_STORY_CONSUMER],
    background: (runtime) => tasks(runtime),
  };
}

function modelOf(config: Config, runtime: ServiceRuntime): ModelClient | null {
  if (!config.AI_PROVIDER_URL || !config.AI_MODEL) return null;
  return createModelClient({
    baseURL: config.AI_PROVIDER_URL,
    model: config.AI_MODEL,
    apiKey: config.AI_API_KEY,
    timeoutMs: config.AI_TIMEOUT_MS,
    maxConcurrency: config.AI_MAX_CONCURRENCY,
    allowPrivate: config.OUTBOUND_ALLOW_PRIVATE,
    logger: runtime.logger,
  });
}
