import type { EntityManager } from '@pp/db';
import type { StoriesContext } from '../use-cases/shared/context.ts';
import { RETIRED_PARTICIPANTS_CONSUMER, votersChangedHandler } from './voters-changed.ts';

/**
 * participant.updated: a voter may have become an observer, so an auto_reveal session may now have
 * everyone's vote. Its own durable, as participant.left's.
 */
export function participantUpdatedConsumer(prefix: string, context: (em: EntityManager) => StoriesContext) {
  return {
    durable: 'stories-participant-updated',
    filterSubject: `${prefix}.participant.updated`,
    handlers: { 'participant.updated': votersChangedHandler(context) },
    concurrency: 2,
    idempotent: true,
    takesOverFrom: [RETIRED_PARTICIPANTS_CONSUMER],
  };
}
