import type { Express } from 'express';
import { createServiceApp, type ReadinessCheck } from '@pp/http';
import { databaseErrorMapper, type Database } from '@pp/db';
import type { Logger } from '@pp/logger';
import { createOAuthProviderClient, type OAuthProviderClient } from './clients/oauth-provider.client.ts';
import type { Config } from './config.ts';
import { configuredProviders, type OAuthProvider } from './oauth/providers.ts';
import { authRoutes } from './routes/auth.routes.ts';
import type { RouteDeps } from './routes/deps.ts';
import { internalRoutes } from './routes/internal.routes.ts';
import { oauthRoutes } from './routes/oauth.routes.ts';
import { tokenRoutes } from './routes/tokens.routes.ts';

export interface AppDeps {
  config: Config;
  db: Database;
  logger: Logger;
  /** Publishes the outbox now (the relay's kick). */
  publish: () => void;
  readiness?: Record<string, ReadinessCheck>;
  isShuttingDown?: () => boolean;
  now?: () => Date;
}

/** The identity service: accounts, passwords, tokens, social sign-on. Never listens by itself. */
export function createApp(deps: AppDeps): Express {
  const now = deps.now ?? (() => new Date());
  const providers: OAuthProvider[] = configuredProviders(deps.config);
  const oauthClients = new Map<string, OAuthProviderClient>(
    providers.map((p) => [
      p.id,
      createOAuthProviderClient(p, { logger: deps.logger, timeoutMs: deps.config.OAUTH_TIMEOUT_MS }),
    ]),
  );
  const routeDeps: RouteDeps = {
    config: deps.config,
    providers,
    oauthClients,
    context: () => ({ em: deps.db.em(), config: deps.config, publish: deps.publish, now }),
  };
  return createServiceApp({
    logger: deps.logger,
    identityKey: deps.config.INTERNAL_SIGNING_KEY,
    readiness: { database: () => deps.db.check(), ...deps.readiness },
    isShuttingDown: deps.isShuttingDown,
    errorMappers: [databaseErrorMapper],
    routes: (app) => {
      app.use(deps.db.requestContext);
      app.use(authRoutes(routeDeps));
      app.use(tokenRoutes(routeDeps));
      app.use(oauthRoutes(routeDeps));
      app.use(internalRoutes(routeDeps));
    },
  });
}
