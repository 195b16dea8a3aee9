/** The gateway's process, once tracing has started (main.ts). */
import { createClient } from 'redis';
import { configOrExit } from '@pp/config';
import { installGracefulShutdown, labelMetricsWith, listen } from '@pp/http';
import { createLogger } from '@pp/logger';
import { stopTracing } from '@pp/telemetry';
import { apiDocuments, createApp } from './app.ts';
import { metricsApp } from './health/metrics-app.ts';
import { connectNats } from '@pp/events';
import { listenForRevocations } from './auth/revocation-listener.ts';
import { TokenCache } from './auth/token-cache.ts';
import { readConfig } from './config.ts';

const config = configOrExit(readConfig);
const logger = createLogger({ name: 'gateway', level: config.LOG_LEVEL });
labelMetricsWith('gateway');

const tokenCache = new TokenCache({
  positiveTtlMs: config.TOKEN_CACHE_TTL_SECONDS * 1000,
  negativeTtlMs: config.TOKEN_NEGATIVE_CACHE_TTL_SECONDS * 1000,
});
const nc = await connectNats({
  url: config.NATS_URL,
  name: 'gateway',
  user: config.NATS_USER,
  password: config.NATS_PASSWORD,
  logger,
});
const revocations = listenForRevocations(nc, tokenCache, logger, config.EVENTS_PREFIX);

let redis: ReturnType<typeof createClient> | undefined;
if (config.REDIS_URL) {
  redis = createClient({
    url: config.REDIS_URL,
    socket: { connectTimeout: 2_000, reconnectStrategy: (n) => Math.min(n * 200, 2_000) },
  });
  redis.on('error', (err) => logger.warn({ err }, 'redis error'));
  await redis.connect();
}

let shuttingDown = false;
const documents = apiDocuments(config, logger);
const app = createApp({
  config,
  logger,
  tokenCache,
  redis,
  documents,
  readiness: {
    nats: async () => {
      if (nc.isClosed()) throw new Error('nats closed');
      await nc.flush();
    },
    ...(redis ? { redis: () => redis!.ping() } : {}),
  },
  isShuttingDown: () => shuttingDown,
});
const running = await listen(app, config.PORT, config.HOST);
logger.info({ port: running.port, url: `http://127.0.0.1:${running.port}` }, 'gateway listening');
const metrics = await listen(metricsApp(logger), config.METRICS_PORT, config.HOST);
logger.info(
  { port: metrics.port, url: `http://127.0.0.1:${metrics.port}/metrics` },
  'gateway metrics listening',
);

installGracefulShutdown(running, {
  logger,
  timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  onStart: () => {
    shuttingDown = true;
    // Live streams never end by themselves: after a short drain they are cut (clients reconnect to another replica).
    setTimeout(
      () => running.server.closeAllConnections(),
      Math.min(5_000, config.SHUTDOWN_TIMEOUT_MS / 2),
    ).unref();
  },
  steps: [
    ['revocations', async () => revocations.stop()],
    ['unit descriptions', async () => documents.stop()],
    ['nats', () => nc.drain()],
    ['redis', async () => void (await redis?.quit())],
    ['metrics', () => metrics.close()],
    ['tracing', stopTracing],
  ],
});
