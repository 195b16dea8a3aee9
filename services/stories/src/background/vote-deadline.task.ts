import type { Database } from '@pp/db';
import type { Logger } from '@pp/logger';
import { overdueStoryIds } from '../db/story.repository.ts';
import { revealAtDeadline } from '../use-cases/auto-reveal.use-case.ts';
import type { StoriesContext } from '../use-cases/context.ts';

/**
 * Reveals the open story of every session whose vote-by deadline has passed. Polls the read model;
 * several replicas may poll at once: the reveal's lock lets one win and the others see 409.
 */
export function startVoteDeadlineTask(options: {
  db: Database;
  logger: Logger;
  intervalMs: number;
  now: () => Date;
  context: (em: ReturnType<Database['fork']>) => StoriesContext;
}) {
  let running: Promise<void> | undefined;
  let stopped = false;

  async function tick() {
    const ids = await overdueStoryIds(options.db.fork(), options.now());
    for (const id of ids) {
      if (stopped) return;
      try {
        const revealed = await revealAtDeadline(options.context(options.db.fork()), id);
        if (revealed) options.logger.info({ story_id: id }, 'revealed at the vote-by deadline');
      } catch (err) {
        options.logger.warn({ err, story_id: id }, 'could not reveal at the vote-by deadline, will retry');
      }
    }
  }

  const timer = setInterval(() => {
    if (running || stopped) return;
    running = tick()
      .catch((err) => options.logger.warn({ err }, 'vote-by deadline check failed'))
      .finally(() => {
        running = undefined;
      });
  }, options.intervalMs);
  timer.unref();

  return {
    name: 'vote-by-deadline',
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
