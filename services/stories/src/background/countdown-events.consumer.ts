import type { EventHandlers } from '@pp/events';
import { keepEndedCountdown, keepStartedCountdown } from '../use-cases/keep-countdown.use-case.ts';

/** countdown.*: the rounds the deadline task reveals when their countdown reaches zero. */
export function countdownEventsConsumer(prefix: string) {
  const handlers: EventHandlers = {
    'countdown.started': (event, em) => keepStartedCountdown({ em }, event.data, event.occurred_at),
    'countdown.ended': (event, em) => keepEndedCountdown({ em }, event.data, event.occurred_at),
  };
  // Idempotent by itself: an announcement is kept only when it is the newest.
  return {
    durable: 'stories-countdowns',
    filterSubject: `${prefix}.countdown.>`,
    handlers,
    idempotent: true,
  };
}
