import type { Database } from '@pp/db';
import type { Logger } from '@pp/logger';
import { startPeriodicTask } from '@pp/runtime';
import { overdueStoryIds } from '../db/story.repository.ts';
import { revealAtDeadline } from '../use-cases/reveal-at-deadline.use-case.ts';
import type { StoriesContext } from '../use-cases/shared/context.ts';

/**
 * Reveals the open story of every session whose vote-by deadline has passed. Polls the read model
 * (the sessions unit checks the deadline again on its own data before it seals); several replicas
 * may poll at once: of two reveals of one story, one wins and the other sees 409.
 */
export function startVoteDeadlineTask(options: {
  db: Database;
  logger: Logger;
  intervalMs: number;
  now: () => Date;
  context: (em: ReturnType<Database['fork']>) => StoriesContext;
}) {
  return startPeriodicTask({
    name: 'vote-by-deadline',
    intervalMs: options.intervalMs,
    logger: options.logger,
    tick: async (stopped) => {
      for (const id of await overdueStoryIds(options.db.fork(), options.now())) {
        if (stopped()) return;
        try {
          const revealed = await revealAtDeadline(options.context(options.db.fork()), id);
          if (revealed) options.logger.info({ story_id: id }, 'revealed at the vote-by deadline');
        } catch (err) {
          options.logger.warn({ err, story_id: id }, 'could not reveal at the vote-by deadline, will retry');
        }
      }
    },
  });
}
