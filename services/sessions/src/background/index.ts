import type { BackgroundTask, ServiceRuntime } from '@pp/runtime';
import type { Config } from '../config.ts';
import { provisionalSessionsTask } from './provisional-sessions.task.ts';
import { roomHistoryTask } from './room-history.task.ts';
import type { RoomHub } from './room-hub.ts';

/**
 * The live room's feed (its fan-out and its record; stopped with the unit), the pruning of the room's history, and taking back
 * sessions left waiting for their template's stories.
 */
export const tasks = (
  runtime: ServiceRuntime,
  hub: RoomHub | undefined,
  config: Config,
): BackgroundTask[] => [
  { name: 'live room', stop: () => hub?.stop() },
  roomHistoryTask(runtime),
  provisionalSessionsTask(runtime, config.PROVISIONAL_TTL_MS),
];
