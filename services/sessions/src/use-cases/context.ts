import type { EntityManager } from '@pp/db';
import type { SessionSettings } from '../domain/session-settings.ts';
import type { VoteScenes } from './vote-scenes.ts';

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
  /** The scenes of recent votes (one per process): a voter's next vote skips the read. */
  voteScenes: VoteScenes;
}

export const SOURCE = 'sessions';
