import type { BackgroundTask, ConsumerSpec, ServiceRuntime } from '@pp/runtime';
import type { Config } from '../config.ts';
import { forgetEndedTokens } from '../use-cases/forget-ended-tokens.use-case.ts';
import { sweepOAuthStates } from '../use-cases/sweep-oauth-states.use-case.ts';
import { startSweepTask } from './sweep.task.ts';

/** The identity unit consumes no event: it only announces user.created and token.revoked. */
export const consumers = (): ConsumerSpec[] => [];

/**
 * Sweeping the sign-on states that expired (a callback takes only its own; every 5 minutes by
 * default), and the tokens that ended over 30 days ago (every hour).
 */
export const tasks = (runtime: ServiceRuntime, config: Config, now: () => Date): BackgroundTask[] => {
  const { db, logger } = runtime;
  return [
    startSweepTask({
      name: 'oauth-state-sweep',
      sweep: sweepOAuthStates,
      swept: 'expired sign-on states swept',
      intervalMs: config.OAUTH_STATE_SWEEP_MS,
      db,
      logger,
      now,
    }),
    startSweepTask({
      name: 'ended-token-sweep',
      sweep: forgetEndedTokens,
      swept: 'long-ended tokens forgotten',
      intervalMs: config.ENDED_TOKEN_SWEEP_MS,
      db,
      logger,
      now,
    }),
  ];
};
