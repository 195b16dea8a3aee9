import { startPruningTask, type BackgroundTask, type ConsumerSpec, type ServiceRuntime } from '@pp/runtime';
import type { Config } from '../config.ts';
import { forgetEndedTokens } from '../use-cases/forget-ended-tokens.use-case.ts';
import { sweepOAuthStates } from '../use-cases/sweep-oauth-states.use-case.ts';

/** The identity unit consumes no event: it only announces user.created and token.revoked. */
export const consumers = (): ConsumerSpec[] => [];

/**
 * Sweeping the sign-on states that expired (a callback takes only its own; every 5 minutes by
 * default), and the tokens that ended over 30 days ago (every hour).
 */
export const tasks = (runtime: ServiceRuntime, config: Config, now: () => Date): BackgroundTask[] => {
  const { db, logger } = runtime;
  return [
    startPruningTask({
      name: 'oauth-state-sweep',
      intervalMs: config.OAUTH_STATE_SWEEP_MS,
      logger,
      prune: (stopped) => sweepOAuthStates(db.fork(), now(), stopped),
      pruned: 'expired sign-on states swept',
    }),
    startPruningTask({
      name: 'ended-token-sweep',
      intervalMs: config.ENDED_TOKEN_SWEEP_MS,
      logger,
      prune: (stopped) => forgetEndedTokens(db.fork(), now(), stopped),
      pruned: 'long-ended tokens forgotten',
    }),
  ];
};
