import type { EntityManager } from '@pp/db';
import type { EventHandlers } from '@pp/events';
import { revealWhenVotersChanged } from '../use-cases/reveal-when-voters-changed.use-case.ts';
import type { StoriesContext } from '../use-cases/shared/context.ts';
import { forgetDiscardedSession } from '../use-cases/forget-discarded-session.use-case.ts';
import { keepSessionSnapshot, keepUnarchivedSession } from '../use-cases/keep-session-snapshot.use-case.ts';

/**
 * session.*: the read model of sessions (owner, code, deck, settings). Switching auto-reveal on when
 * everyone has voted already reveals the current story. A discarded session's stories go.
 */
export function sessionEventsConsumer(prefix: string, context: (em: EntityManager) => StoriesContext) {
  const handlers: EventHandlers = {
    'session.created': (event, em) => keepSessionSnapshot({ em }, event.data.session),
    'session.updated': async (event, em) => {
      await keepSessionSnapshot({ em }, event.data.session);
      if (event.data.changed.includes('auto_reveal') && event.data.session.auto_reveal)
        await revealWhenVotersChanged(context(em), event.data.session.id);
    },
    'session.archived': (event, em) => keepSessionSnapshot({ em }, event.data.session),
    'session.unarchived': (event, em) => keepUnarchivedSession({ em }, event.data.session),
    'session.discarded': (event, em) => forgetDiscardedSession({ em }, event.data.session_id),
  };
  // Idempotent by itself (a snapshot is kept only when newer; a second reveal is refused and ignored),
  // and a reveal calls the sessions unit, which no transaction may be open across.
  return { durable: 'stories-sessions', filterSubject: `${prefix}.session.>`, handlers, idempotent: true };
}
