import type { EntityManager } from '@pp/db';
import type { Logger } from '@pp/logger';
import type { SessionsClient } from '../../clients/sessions.client.ts';
import type { SessionTurns } from './session-turns.ts';

/** What a use case works with: an entity manager, the sessions service, the outbox relay, a clock and the session lines. */
export interface StoriesContext {
  em: EntityManager;
  sessions: SessionsClient;
  /** Publishes what the outbox holds right away (call after a commit). */
  publish: () => void;
  now: () => Date;
  logger: Logger;
  /** The replica's lines of changes, one per session (see session-turns.ts). */
  turns: SessionTurns;
}

/**
 * Who acts: a signed-in user (ownership is checked), the room's moderator (a participant the sessions
 * unit has confirmed holds the role, for round control only: see round-controller.ts) or the service
 * itself (auto-reveal, deadlines, stating a round again, a batch another unit adds after checking the
 * owner itself).
 */
export type Actor =
  | { kind: 'user'; userId: string }
  | { kind: 'moderator'; participantId: number }
  | { kind: 'system'; reason: 'auto_reveal' | 'vote_by_deadline' | 'countdown' | 'round_sync' | 'batch' };

/** A use-case context on an entity manager (the request's, or a fresh one for a consumer or a task). */
export type ContextFactory = (em: EntityManager) => StoriesContext;

export const SOURCE = 'stories';
