import { startPeriodicTask, type BackgroundTask } from '@pp/runtime';
import type { Logger } from '@pp/logger';
import type { Dispatcher } from './dispatcher.ts';

/**
 * Retries come due with time: the dispatcher looks for them every `intervalMs` (new deliveries do not
 * wait for it: they kick it). Stopping lets the attempts in flight finish and records them; those cut
 * short come due again when their lease ends, in this process or another.
 */
export function startDispatchTask(options: {
  dispatcher: Dispatcher;
  intervalMs: number;
  logger: Logger;
}): BackgroundTask {
  const poll = startPeriodicTask({
    name: 'webhook deliveries',
    intervalMs: options.intervalMs,
    logger: options.logger,
    tick: async () => {
      options.dispatcher.kick();
      options.dispatcher.sweep();
    },
  });
  options.dispatcher.kick();
  return {
    name: 'webhook deliveries',
    stop: async () => {
      await poll.stop();
      await options.dispatcher.stop(5_000);
    },
  };
}
