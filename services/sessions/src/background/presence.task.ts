import { startPeriodicTask, type ServiceRuntime } from '@pp/runtime';
import { forgetOldStreams, keepStreamsSeen, markAway } from '../use-cases/mark-away.use-case.ts';

/**
 * The room streams open on this replica with a participant's token, by stream id, and the records of
 * those closing: the unit's stop waits for them before its database goes (a stop closes every stream).
 */
export class OpenPresenceStreams extends Set<string> {
  readonly closing = new Set<Promise<unknown>>();
}

export interface PresenceTiming {
  /** How long after its last stream closed a participant is announced away. */
  graceMs: number;
  /** How often this replica looks for participants who left. */
  sweepMs: number;
}

/** A stream is seen again this often while open; one not seen for STALE_AFTER is gone (its replica died). */
const SEEN_EVERY_MS = 10_000;
const STALE_AFTER_MS = 45_000;
const FORGET_AFTER_MS = 600_000;

/**
 * Presence upkeep on each replica: its open streams are seen again every few seconds, and whoever has
 * no open stream left (closed more than the grace ago, or gone with a replica) is announced away.
 */
export function presenceTask(runtime: ServiceRuntime, open: OpenPresenceStreams, timing: PresenceTiming) {
  let seenAt = 0;
  const task = startPeriodicTask({
    name: 'presence',
    intervalMs: timing.sweepMs,
    logger: runtime.logger,
    tick: async () => {
      const ctx = { em: runtime.db.fork(), now: () => new Date(), publish: () => runtime.relay.kick() };
      const now = Date.now();
      if (now - seenAt >= SEEN_EVERY_MS) {
        seenAt = now;
        await keepStreamsSeen(ctx, [...open]);
        await forgetOldStreams(ctx, new Date(now - FORGET_AFTER_MS));
      }
      await markAway(ctx, {
        seenAfter: new Date(now - STALE_AFTER_MS),
        closedAfter: new Date(now - timing.graceMs),
      });
    },
  });
  return {
    ...task,
    stop: async () => {
      await task.stop();
      await Promise.allSettled([...open.closing]);
    },
  };
}
