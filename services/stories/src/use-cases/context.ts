import type { EntityManager } from '@pp/db';
import type { Logger } from '@pp/logger';
import type { SessionsClient } from '../clients/sessions.client.ts';

/** What a use case works with: an entity manager, the sessions service, the outbox relay and a clock. */
export interface StoriesContext {
  em: EntityManager;
  sessions: SessionsClient;
  /** Publishes what the outbox holds right away (call after a commit). */
  publish: () => void;
  now: () => Date;
  logger: Logger;
}

/** Who acts: a signed-in user (ownership is checked) or the service itself (auto-reveal, deadlines). */
export type Actor =
  { kind: 'user'; userId: string } | { kind: 'system'; reason: 'auto_reveal' | 'vote_by_deadline' };

export const SOURCE = 'stories';
