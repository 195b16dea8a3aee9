import type { BackgroundTask, ConsumerSpec, ServiceRuntime } from '@pp/runtime';
import type { Config } from '../config.ts';
import { startEndedTokenSweepTask } from './ended-token-sweep.task.ts';
import { startOAuthStateSweepTask } from './oauth-state-sweep.task.ts';

/** The identity unit consumes no event: it only announces user.created and token.revoked. */
export const consumers = (): ConsumerSpec[] => [];

/**
 * Sweeping the sign-on states that expired (a callback takes only its own), and the tokens that ended
 * long ago.
 */
export const tasks = (runtime: ServiceRuntime, config: Config, now: () => Date): BackgroundTask[] => [
  startOAuthStateSweepTask({
    db: runtime.db,
    logger: runtime.logger,
    now,
    intervalMs: config.OAUTH_STATE_SWEEP_MS,
  }),
  startEndedTokenSweepTask({
    db: runtime.db,
    logger: runtime.logger,
    now,
    intervalMs: config.ENDED_TOKEN_SWEEP_MS,
  }),
];
