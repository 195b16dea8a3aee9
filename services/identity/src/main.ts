import { runService } from '@pp/runtime';
import { createApp } from './app.ts';
import { readConfig } from './config.ts';
import { entities } from './db/entities/index.ts';
import { migrations } from './db/migrations/index.ts';

const config = readConfig();

await runService({
  name: 'identity',
  config,
  entities,
  migrations,
  createApp: (runtime) =>
    createApp({
      config,
      db: runtime.db,
      logger: runtime.logger,
      publish: () => runtime.relay.kick(),
      readiness: runtime.readiness,
      isShuttingDown: runtime.isShuttingDown,
    }),
});
