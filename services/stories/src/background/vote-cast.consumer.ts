import type { EntityManager } from '@pp/db';
import type { EventHandlers } from '@pp/events';
import { revealWhenAllVoted } from '../use-cases/reveal-when-all-voted.use-case.ts';
import type { StoriesContext } from '../use-cases/shared/context.ts';

/**
 * vote.cast of sessions that reveal by themselves (`<prefix>.vote.cast.auto`): auto_reveal once
 * everyone has voted. The votes of other sessions are never delivered here.
 */
export function voteCastConsumer(prefix: string, context: (em: EntityManager) => StoriesContext) {
  const handlers: EventHandlers = {
    'vote.cast': async (event, em) => {
      await revealWhenAllVoted(context(em), event.data);
    },
  };
  // A reveal calls the sessions service: a few at a time is plenty and keeps database connections free.
  // Idempotent by itself (a second reveal of the story is refused and ignored): no processed-events row.
  return {
    durable: 'stories-votes',
    // what subjectFor names a vote.cast with auto_reveal: true
    filterSubject: `${prefix}.vote.cast.auto`,
    handlers,
    concurrency: 4,
    idempotent: true,
  };
}
