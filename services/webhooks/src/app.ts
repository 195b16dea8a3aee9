import type { Express } from 'express';
import type { EntityManager } from '@pp/db';
import type { Resolver } from '@pp/outbound';
import { createSessionsClient } from '@pp/http-client';
import { createRuntimeApp, type ServiceDefinition, type ServiceRuntime } from '@pp/runtime';
import { webhooksApi } from './api/docs.ts';
import { eventSubscriptions, tasks, type EventSubscriptions } from './background/index.ts';
import { createDispatcher, type Dispatcher } from './background/dispatcher.ts';
import { createEndpointClient } from './clients/endpoint.client.ts';
import type { Config } from './config.ts';
import { entities } from './db/entities/index.ts';
import { migrations } from './db/migrations/index.ts';
import { secretBox } from './domain/secret-box.ts';
import { deliveriesRoutes } from './routes/deliveries.routes.ts';
import { webhooksRoutes } from './routes/webhooks.routes.ts';
import type { WebhooksContext } from './use-cases/shared/context.ts';

export interface AppOptions {
  /** A clock for tests; the real one by default. */
  now?: () => Date;
  /** How host names resolve (tests give a table); the system's resolver by default. */
  resolve?: Resolver;
}

/** The webhooks unit's HTTP API: registrations and the delivery log. Never listens by itself. */
export function createApp(config: Config, runtime: ServiceRuntime, context: () => WebhooksContext): Express {
  return createRuntimeApp(
    runtime,
    config.INTERNAL_SIGNING_KEY,
    (app) => {
      app.use(webhooksRoutes({ context }));
      app.use(deliveriesRoutes({ context }));
    },
    webhooksApi,
  );
}

/** The webhooks unit as libs/runtime runs it (main.ts and the tests). */
export function definition(config: Config, options: AppOptions = {}): ServiceDefinition {
  const now = options.now ?? (() => new Date());
  const secrets = secretBox(config.CREDENTIALS_ENCRYPTION_KEY);
  const outbound = { allowPrivate: config.OUTBOUND_ALLOW_PRIVATE, resolve: options.resolve };
  const units = new WeakMap<
    ServiceRuntime,
    {
      context: (em?: EntityManager) => WebhooksContext;
      dispatcher: Dispatcher;
      subscriptions: EventSubscriptions;
    }
  >();

  /** One sessions client, one dispatcher and one endpoint client per running unit. */
  function unit(runtime: ServiceRuntime) {
    let found = units.get(runtime);
    if (found) return found;
    const sessions = createSessionsClient({
      caller: 'webhooks',
      baseURL: config.SESSIONS_URL,
      signingKey: config.INTERNAL_SIGNING_KEY,
      logger: runtime.logger,
      timeoutMs: config.SESSIONS_TIMEOUT_MS,
    });
    const context = (em?: EntityManager): WebhooksContext => ({
      em: em ?? runtime.db.fork(),
      now,
      secrets,
      sessions,
      outbound,
      deliverNow: () => dispatcher.kick(),
      webhooksChanged: () => subscriptions.changed(),
      retryScale: config.WEBHOOKS_RETRY_SCALE,
    });
    const dispatcher: Dispatcher = createDispatcher({
      context: () => context(),
      endpoint: createEndpointClient({ ...outbound, timeoutMs: config.WEBHOOKS_TIMEOUT_MS }),
      logger: runtime.logger,
      concurrency: config.WEBHOOKS_CONCURRENCY,
      perEndpoint: config.WEBHOOKS_ENDPOINT_CONCURRENCY,
      timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
    });
    const subscriptions: EventSubscriptions = eventSubscriptions({ runtime, context });
    found = { context, dispatcher, subscriptions };
    units.set(runtime, found);
    return found;
  }

  return {
    name: 'webhooks',
    config,
    entities,
    migrations,
    createApp: (runtime) => createApp(config, runtime, () => unit(runtime).context()),
    background: (runtime) =>
      tasks(
        runtime,
        config,
        () => unit(runtime).context(),
        unit(runtime).dispatcher,
        unit(runtime).subscriptions,
      ),
  };
}
