import type { EntityManager } from '@pp/db';
import type { Logger } from '@pp/logger';
import type { SessionsClient } from '../../clients/sessions.client.ts';

/** What a use case works with: an entity manager, the sessions service, the outbox relay and a clock. */
export interface StoriesContext {
  em: EntityManager;
  sessions: SessionsClient;
  /** Publishes what the outbox holds right away (call after a commit). */
  publish: () => void;
  now: () => Date;
  logger: Logger;
}

/**
 * Who acts: a signed-in user (ownership is checked) or the service itself (auto-reveal, deadlines,
 * stating a round again, a batch another unit adds after checking the owner itself).
 */
export type Actor =
  | { kind: 'user'; userId: string }
  | { kind: 'system'; reason: 'auto_reveal' | 'vote_by_deadline' | 'round_sync' | 'batch' };

/** A use-case context on an entity manager (the request's, or a fresh one for a consumer or a task). */
export type ContextFactory = (em: EntityManager) => StoriesContext;

export const SOURCE = 'stories';
