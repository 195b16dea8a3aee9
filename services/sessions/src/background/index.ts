import type { BackgroundTask, ConsumerSpec, ServiceRuntime } from '@pp/runtime';
import type { Config } from '../config.ts';
import { provisionalSessionsTask } from './provisional-sessions.task.ts';
import { roomHistoryTask } from './room-history.task.ts';
import type { RoomHub } from './room-hub.ts';
import { roomRecordConsumer } from './room-record.consumer.ts';

/** What the sessions unit does outside requests: it records the room's events in the bus's order. */
export const consumers = (runtime: ServiceRuntime): ConsumerSpec[] => [
  roomRecordConsumer(runtime.bus.prefix),
];

/**
 * The live room's fan-out (stopped with the unit), the pruning of the room's history, and taking back
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
