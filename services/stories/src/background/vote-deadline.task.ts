import type { Database } from '@pp/db';
import type { Logger } from '@pp/logger';
import { startPeriodicTask } from '@pp/runtime';
import { pruneCountdowns } from '../db/countdown.repository.ts';
import { overdueStories } from '../db/story.repository.ts';
import { revealAtDeadline } from '../use-cases/reveal-at-deadline.use-case.ts';
import type { StoriesContext } from '../use-cases/shared/context.ts';

/** Countdowns are kept an hour past their time (any round they were for has ended by then). */
const KEEP_COUNTDOWNS_MS = 3_600_000;
/** How often they are let go: a delete per poll would cost more than the few rows it finds. */
const PRUNE_EVERY_MS = 60_000;

/**
 * Reveals the open story of every session whose vote-by deadline has passed, and every open round
 * whose countdown (set to reveal) has reached zero. Polls the read model
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
  let prunedAt = 0;
  return startPeriodicTask({
    name: 'vote-by-deadline',
    intervalMs: options.intervalMs,
    logger: options.logger,
    tick: async (stopped) => {
      const now = options.now();
      for (const due of await overdueStories(options.db.fork(), now)) {
        if (stopped()) return;
        const fields = { story_id: due.id, reason: due.reason };
        try {
          const revealed = await revealAtDeadline(options.context(options.db.fork()), due);
          if (revealed) options.logger.info(fields, 'revealed at its deadline');
        } catch (err) {
          options.logger.warn({ err, ...fields }, 'could not reveal at its deadline, will retry');
        }
      }
      if (now.getTime() - prunedAt < PRUNE_EVERY_MS) return;
      prunedAt = now.getTime();
      await pruneCountdowns(options.db.fork(), new Date(now.getTime() - KEEP_COUNTDOWNS_MS));
    },
  });
}
