import type { ServiceDefinition } from '@pp/runtime';
import { createApp, type AppOptions } from './app.ts';
import type { Config } from './config.ts';
import { entities } from './db/entities/index.ts';
import { migrations } from './db/migrations/index.ts';
import { storyEventsConsumer } from './events/consumers/story-events.consumer.ts';

/** The sessions service as the runtime starts it (main.ts and the integration tests). */
export function sessionsService(config: Config, options: AppOptions = {}): ServiceDefinition {
  return {
    name: 'sessions',
    config,
    entities,
    migrations,
    createApp: (runtime) => createApp(config, runtime, options),
    consumers: (runtime) => [storyEventsConsumer(runtime.bus.prefix)],
  };
}
