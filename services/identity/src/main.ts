import { createDatabase, ensureDatabase } from '@pp/db';
import { connectNats, ensureStream, natsCheck, startOutboxRelay } from '@pp/events';
import { installGracefulShutdown, listen } from '@pp/http';
import { createLogger } from '@pp/logger';
import { createApp } from './app.ts';
import { readConfig } from './config.ts';
import { entities } from './db/entities/index.ts';
import { migrations } from './db/migrations/index.ts';

const config = readConfig();
const logger = createLogger({ name: 'identity', level: config.LOG_LEVEL });

await ensureDatabase(config.DATABASE_URL);
const db = await createDatabase({ url: config.DATABASE_URL, entities, migrations, logger });
const nc = await connectNats({ url: config.NATS_URL, name: 'identity', logger });
await ensureStream(nc);
const relay = startOutboxRelay({ orm: db.orm, nc, logger });

let shuttingDown = false;
const app = createApp({
  config,
  db,
  logger,
  publish: () => relay.kick(),
  readiness: { nats: () => natsCheck(nc) },
  isShuttingDown: () => shuttingDown,
});
const running = await listen(app, config.PORT);
logger.info({ port: running.port }, 'identity listening');

installGracefulShutdown(running, {
  logger,
  timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  onStart: () => {
    shuttingDown = true;
  },
  steps: [
    ['outbox relay', () => relay.stop()],
    ['nats', () => nc.drain()],
    ['database', () => db.close()],
  ],
});
