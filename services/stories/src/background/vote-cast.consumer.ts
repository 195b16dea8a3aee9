import type { EntityManager } from '@pp/db';
import type { EventHandlers } from '@pp/events';
import { revealWhenAllVoted } from '../use-cases/reveal-when-all-voted.use-case.ts';
import type { StoriesContext } from '../use-cases/shared/context.ts';

/** vote.cast: auto_reveal once everyone has voted. */
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
    filterSubject: `${prefix}.vote.cast`,
    handlers,
    concurrency: 4,
    idempotent: true,
  };
}
