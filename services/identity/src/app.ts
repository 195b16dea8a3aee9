import type { Express } from 'express';
import { createRuntimeApp, type ServiceDefinition, type ServiceRuntime } from '@pp/runtime';
import { identityApi } from './api/docs.ts';
import { consumers, tasks } from './background/index.ts';
import { createOAuthProviderClient, type OAuthProviderClient } from './clients/oauth-provider.client.ts';
import type { Config } from './config.ts';
import { entities } from './db/entities/index.ts';
import { migrations } from './db/migrations/index.ts';
import { configuredProviders, type OAuthProvider } from './clients/oauth-providers.ts';
import { authRoutes } from './routes/auth.routes.ts';
import type { RouteDeps } from './routes/deps.ts';
import { internalRoutes } from './routes/internal.routes.ts';
import { oauthRoutes } from './routes/oauth.routes.ts';
import { tokenRoutes } from './routes/tokens.routes.ts';

export interface AppOptions {
  now?: () => Date;
}

const clockOf = (options: AppOptions) => options.now ?? (() => new Date());

/** The identity service: accounts, passwords, tokens, social sign-on. Never listens by itself. */
export function createApp(config: Config, runtime: ServiceRuntime, options: AppOptions = {}): Express {
  const now = clockOf(options);
  const providers: OAuthProvider[] = configuredProviders(config);
  const oauthClients = new Map<string, OAuthProviderClient>(
    providers.map((p) => [
      p.id,
      createOAuthProviderClient(p, { logger: runtime.logger, timeoutMs: config.OAUTH_TIMEOUT_MS }),
    ]),
  );
  const routeDeps: RouteDeps = {
    config,
    providers,
    oauthClients,
    context: () => ({
      em: runtime.db.em(),
      config,
      publish: () => runtime.relay.kick(),
      publishNow: () => runtime.relay.flush(),
      now,
    }),
  };
  return createRuntimeApp(
    runtime,
    config.INTERNAL_SIGNING_KEY,
    (app) => {
      app.use(authRoutes(routeDeps));
      app.use(tokenRoutes(routeDeps));
      app.use(oauthRoutes(routeDeps));
      app.use(internalRoutes(routeDeps));
    },
    identityApi,
  );
}

/** The identity service as libs/runtime runs it (main.ts and the tests). */
export function definition(config: Config, options: AppOptions = {}): ServiceDefinition {
  return {
    name: 'identity',
    config,
    entities,
    migrations,
    createApp: (runtime) => createApp(config, runtime, options),
    consumers,
    background: (runtime) => tasks(runtime, config, clockOf(options)),
  };
}
