import type { BackgroundTask, ServiceRuntime } from '@pp/runtime';
import type { Config } from '../config.ts';
import { presenceTask, type OpenPresenceStreams } from './presence.task.ts';
import { provisionalSessionsTask } from './provisional-sessions.task.ts';
import { roomHistoryTask } from './room-history.task.ts';
import type { RoomHub } from './room-hub.ts';

/**
 * The live room's feed (its fan-out and its record; stopped with the unit), the pruning of the room's history, taking back
 * sessions left waiting for their template's stories, and who is in the room (presence).
 */
export const tasks = (
  runtime: ServiceRuntime,
  hub: RoomHub | undefined,
  config: Config,
  presence: OpenPresenceStreams,
): BackgroundTask[] => [
  { name: 'live room', stop: () => hub?.stop() },
  roomHistoryTask(runtime),
  provisionalSessionsTask(runtime, config.PROVISIONAL_TTL_MS),
  presenceTask(runtime, presence, { graceMs: config.PRESENCE_GRACE_MS, sweepMs: config.PRESENCE_SWEEP_MS }),
];
