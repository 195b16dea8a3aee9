import type { EntityManager } from '@pp/db';
import type { EventHandlers } from '@pp/events';
import { revealWhenVotersChanged } from '../use-cases/reveal-when-voters-changed.use-case.ts';
import type { StoriesContext } from '../use-cases/shared/context.ts';

/**
 * participant.left and participant.updated: the voters of the current round changed, so an
 * auto_reveal session may now have everyone's vote. (participant.joined can only add a voter.)
 */
export function participantEventsConsumer(prefix: string, context: (em: EntityManager) => StoriesContext) {
  const handlers: EventHandlers = {
    'participant.left': async (event, em) => {
      await revealWhenVotersChanged(context(em), event.data.session_id);
    },
    'participant.updated': async (event, em) => {
      await revealWhenVotersChanged(context(em), event.data.session_id);
    },
  };
  // Idempotent by itself (a second reveal of the story is refused and ignored): no processed-events row.
  return {
    durable: 'stories-participants',
    filterSubject: `${prefix}.participant.>`,
    handlers,
    concurrency: 2,
    idempotent: true,
  };
}
