import type { Logger } from '@pp/logger';

/** Background work of a service: started after it listens, stopped first when it shuts down. */
export interface BackgroundTask {
  name: string;
  stop: () => Promise<void> | void;
}

/**
 * Runs `tick` every `intervalMs`, never two at once (a slow tick makes the next ones wait their turn
 * rather than pile up). A failed tick is logged and the next one tries again. A long tick can ask
 * `stopped()` to end early; `stop()` waits for the tick in progress.
 */
export function startPeriodicTask(options: {
  name: string;
  intervalMs: number;
  logger: Logger;
  tick: (stopped: () => boolean) => Promise<void>;
}): BackgroundTask {
  let running: Promise<void> | undefined;
  let stopped = false;
  const isStopped = () => stopped;
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = options
      .tick(isStopped)
      .catch((err) => options.logger.warn({ err, task: options.name }, 'background task failed'))
      .finally(() => {
        running = undefined;
      });
  }, options.intervalMs);
  timer.unref();
  return {
    name: options.name,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * A periodic pruning: every `intervalMs`, `prune` deletes what outlived its use (asking `stopped()`
 * between batches) and says how many rows went; a pruning that took any is logged as `pruned`.
 */
export const startPruningTask = (options: {
  name: string;
  intervalMs: number;
  logger: Logger;
  prune: (stopped: () => boolean) => Promise<number>;
  /** The log line of a pruning that took rows. */
  pruned: string;
}): BackgroundTask =>
  startPeriodicTask({
    name: options.name,
    intervalMs: options.intervalMs,
    logger: options.logger,
    tick: async (stopped) => {
      const count = await options.prune(stopped);
      if (count > 0) options.logger.info({ count }, options.pruned);
    },
  });
