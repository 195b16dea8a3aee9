import { createServiceApp, mountNotYetAvailable } from '@pp/http';
import type { ServiceDefinition, ServiceRuntime } from '@pp/runtime';
import { eventEntities, EventsMigration } from '@pp/events';
import type { Config } from './config.ts';
import { paths } from './paths.ts';

export function createApp(runtime: ServiceRuntime, config: Config) {
  return createServiceApp({
    logger: runtime.logger,
    identityKey: config.INTERNAL_SIGNING_KEY,
    readiness: runtime.readiness,
    isShuttingDown: runtime.isShuttingDown,
    routes: (app) => mountNotYetAvailable(app, paths, 'webhooks'),
  });
}

export const definition = (config: Config): ServiceDefinition => ({
  name: 'webhooks',
  config,
  entities: eventEntities,
  migrations: [{ name: '0000-events', class: EventsMigration }],
  createApp: (runtime) => createApp(runtime, config),
});
