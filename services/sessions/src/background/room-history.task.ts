import type { ServiceRuntime } from '@pp/runtime';
import { forgetOldRoomEvents } from '../use-cases/shared/room-history.ts';

const KEEP_MS = 24 * 3600 * 1000;
const EVERY_MS = 10 * 60 * 1000;

/** Background work: room history older than a day goes (it only serves reconnecting clients). */
export function roomHistoryTask(runtime: ServiceRuntime) {
  const timer = setInterval(() => {
    forgetOldRoomEvents(runtime.db.fork(), new Date(), KEEP_MS).catch((err) =>
      runtime.logger.warn({ err }, 'could not prune the room history'),
    );
  }, EVERY_MS);
  timer.unref();
  return { name: 'room history', stop: () => clearInterval(timer) };
}
