import type { EntityManager } from '@pp/db';
import type { SessionSettings } from '../domain/session-settings.ts';

/** What a use case works with: the request's entity manager, the outbox relay, a clock, the defaults. */
export interface SessionsContext {
  em: EntityManager;
  /** Publishes what the outbox holds right away (call after a commit). */
  publish: () => void;
  now: () => Date;
  /** Settings a new session of this owner starts with (the workspace defaults, later). */
  defaults: (ownerId: string) => Promise<SessionSettings>;
  /** A candidate session code (random; creation retries when it is taken). */
  newCode: () => string;
}

export const SOURCE = 'sessions';
