import type { EntityManager } from '@pp/db';
import type { Config } from '../../config.ts';

/** What a use case works with: the request's entity manager, settings, the outbox relay and a clock. */
export interface IdentityContext {
  em: EntityManager;
  config: Config;
  /** Publishes what the outbox holds right away (call after a commit). */
  publish: () => void;
  /** The same, and waits until it has gone out (for at most a second): the answer follows its event. */
  publishNow: () => Promise<void>;
  now: () => Date;
}

export const SOURCE = 'identity';
