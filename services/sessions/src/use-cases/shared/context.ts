import type { Turns } from '@pp/async';
import type { ParticipantTokenKey } from '@pp/contracts';
import type { EntityManager } from '@pp/db';
import type { Logger } from '@pp/logger';
import type { StoriesClient } from '../../clients/stories.client.ts';
import type { CommittedRounds } from './committed-rounds.ts';
import type { VoteScenes } from './vote-scenes.ts';

/** What a use case works with: the request's entity manager, the outbox relay, a clock, the stories unit. */
export interface SessionsContext {
  em: EntityManager;
  /** Publishes what the outbox holds right away (call after a commit). */
  publish: () => void;
  now: () => Date;
  /** A candidate session code (random; creation retries when it is taken). */
  newCode: () => string;
  /** The scenes of recent votes (one per process): a voter's next vote skips the read. */
  voteScenes: VoteScenes;
  /** What this replica has seen the stories unit commit: confirms the rounds its changes opened. */
  committedRounds: CommittedRounds;
  /** The stories unit: where a session made from a template gets its stories, and reveals happen. */
  stories: StoriesClient;
  logger: Logger;
  /** Signs the participant tokens a join hands out (derived from the internal signing key). */
  participantTokenKey: ParticipantTokenKey;
  /** The most participants a room holds (observers included). */
  roomMaxParticipants: number;
  /** The lines this replica's joins of each room take turns in (see joinLines). */
  joins: Turns;
}

export const SOURCE = 'sessions';
