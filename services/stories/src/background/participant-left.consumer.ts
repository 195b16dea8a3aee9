import type { EntityManager } from '@pp/db';
import type { StoriesContext } from '../use-cases/shared/context.ts';
import { RETIRED_PARTICIPANTS_CONSUMER, votersChangedHandler } from './voters-changed.ts';

/**
 * participant.left: a voter of the current round went, so an auto_reveal session may now have
 * everyone's vote. Its own durable (NATS 2.9 takes one subject filter per consumer), so the unit never
 * receives the joins and presence changes of the rooms, which cannot complete a round.
 */
export function participantLeftConsumer(prefix: string, context: (em: EntityManager) => StoriesContext) {
  return {
    durable: 'stories-participant-left',
    filterSubject: `${prefix}.participant.left`,
    handlers: { 'participant.left': votersChangedHandler(context) },
    concurrency: 2,
    idempotent: true,
    takesOverFrom: [RETIRED_PARTICIPANTS_CONSUMER],
  };
}
