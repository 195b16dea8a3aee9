import type { ServiceDefinition } from '@pp/runtime';
import { createApp, type AppOptions } from './app.ts';
import type { Config } from './config.ts';
import { entities } from './db/entities/index.ts';
import { migrations } from './db/migrations/index.ts';
import { storyEventsConsumer } from './events/consumers/story-events.consumer.ts';
import { createRoomHub, type RoomHub } from './live/room-hub.ts';
import { roomHistoryTask } from './live/room-history.task.ts';

/** The sessions service as the runtime starts it (main.ts and the integration tests). */
export function sessionsService(config: Config, options: AppOptions = {}): ServiceDefinition {
  let hub: RoomHub | undefined;
  return {
    name: 'sessions',
    config,
    entities,
    migrations,
    createApp: (runtime) => {
      hub = createRoomHub({
        nc: runtime.nc,
        bus: runtime.bus,
        logger: runtime.logger,
        isShuttingDown: runtime.isShuttingDown,
      });
      return createApp(config, runtime, hub, options);
    },
    consumers: (runtime) => [storyEventsConsumer(runtime.bus.prefix)],
    // The room's history is written with the changes themselves (and by the story-events consumer).
    retiredConsumers: ['sessions-room'],
    background: (runtime) => [{ name: 'live room', stop: () => hub?.stop() }, roomHistoryTask(runtime)],
  };
}
