import { startPeriodicTask, type ServiceRuntime } from '@pp/runtime';
import { discardStaleSessions } from '../use-cases/discard-stale-sessions.use-case.ts';

/** Looks for sessions left provisional (see discardStaleSessions) a few times per time-to-live. */
export function provisionalSessionsTask(runtime: ServiceRuntime, ttlMs: number) {
  return startPeriodicTask({
    name: 'provisional sessions',
    intervalMs: Math.max(1_000, Math.floor(ttlMs / 4)),
    logger: runtime.logger,
    tick: async () => {
      const gone = await discardStaleSessions(
        { em: runtime.db.fork(), now: () => new Date(), publish: () => runtime.relay.kick() },
        ttlMs,
      );
      if (gone.length > 0)
        runtime.logger.warn(
          { sessions: gone.map((s) => s.id) },
          'discarded sessions left without their stories',
        );
    },
  });
}
