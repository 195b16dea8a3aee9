import type { EventHandlers } from '@pp/events';
import { keepSessionSnapshot } from '../../use-cases/keep-session-snapshot.use-case.ts';

/** session.*: the read model of sessions (owner, code, deck, settings). */
export function sessionEventsConsumer(prefix: string) {
  const handlers: EventHandlers = {
    'session.created': (event, em) => keepSessionSnapshot({ em }, event.data.session),
    'session.updated': (event, em) => keepSessionSnapshot({ em }, event.data.session),
    'session.archived': (event, em) => keepSessionSnapshot({ em }, event.data.session),
    'session.unarchived': (event, em) => keepSessionSnapshot({ em }, event.data.session),
  };
  return { durable: 'stories-sessions', filterSubject: `${prefix}.session.>`, handlers };
}
