import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Express } from 'express';
import type { RunningServer, UnitDocs } from '@pp/http';
import { createLogger } from '@pp/logger';
import { startApp, testNatsUrl } from '@pp/testing';
import { apiDocuments, createApp } from '../../src/app.ts';
import { listenForRevocations } from '../../src/auth/revocation-listener.ts';
import { TokenCache } from '../../src/auth/token-cache.ts';
import { readConfig, type Config } from '../../src/config.ts';
import type { UnitDocuments } from '../../src/openapi/unit-documents.ts';
import type { RedisClient } from '../../src/rate-limit/rate-limiter.ts';
import { INTERNAL_KEY } from '../../../services/identity/test/support/identity-harness.ts';
import { startStubUnit, type StubUnit } from './stub-unit.ts';

export { INTERNAL_KEY };

export interface GatewayHarness {
  url: string;
  app: Express;
  config: Config;
  tokenCache: TokenCache;
  server: RunningServer;
  documents: UnitDocuments;
  stop(): Promise<void>;
}

/** A gateway in process; its revocation listener on the given bus prefix; units at the given URLs. */
export async function startGateway(options: {
  env: Record<string, string>;
  eventsPrefix?: string;
  redis?: RedisClient;
  /** How soon the gateway asks again a unit that has not described its paths yet. */
  docsRetryMs?: number;
}): Promise<GatewayHarness> {
  const logger = createLogger({ name: 'gateway-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const config = readConfig({
    INTERNAL_SIGNING_KEY: INTERNAL_KEY,
    NATS_URL: testNatsUrl(),
    TRUST_PROXY: 'true',
    ...options.env,
  });
  const tokenCache = new TokenCache({
    positiveTtlMs: config.TOKEN_CACHE_TTL_SECONDS * 1000,
    negativeTtlMs: config.TOKEN_NEGATIVE_CACHE_TTL_SECONDS * 1000,
  });
  let nc: NatsConnection | undefined;
  let revocations: { stop(): void } | undefined;
  if (options.eventsPrefix) {
    nc = await connect({ servers: config.NATS_URL });
    revocations = listenForRevocations(nc, tokenCache, logger, options.eventsPrefix);
  }
  const documents = apiDocuments(config, logger, { retryMs: options.docsRetryMs ?? 200 });
  const app = createApp({ config, logger, tokenCache, redis: options.redis, documents });
  const server = await startApp(app);
  return {
    url: server.url,
    app,
    config,
    tokenCache,
    server,
    documents,
    async stop() {
      documents.stop();
      server.server.closeAllConnections();
      await server.close();
      revocations?.stop();
      await nc?.close();
    },
  };
}

/** Stand-ins for the units that are not built here, and their <UNIT>_URL settings. */
export async function startStubUnits(
  names = ['sessions', 'stories', 'ai', 'integrations', 'webhooks', 'mcp'],
  docs: Record<string, UnitDocs> = {},
) {
  const stubs: Record<string, StubUnit> = {};
  for (const name of names) stubs[name] = await startStubUnit(name, 0, docs[name]);
  const env = Object.fromEntries(
    Object.entries(stubs).map(([name, s]) => [`${name.toUpperCase()}_URL`, s.url]),
  );
  return { stubs, env, stop: () => Promise.all(Object.values(stubs).map((s) => s.stop())) };
}
