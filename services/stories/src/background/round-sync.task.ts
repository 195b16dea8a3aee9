import type { Database } from '@pp/db';
import type { Logger } from '@pp/logger';
import { startPeriodicTask } from '@pp/runtime';
import { unsettledRounds } from '../db/round-version.repository.ts';
import type { StoriesContext } from '../use-cases/shared/context.ts';
import { resyncRound } from '../use-cases/resync-round.use-case.ts';

/**
 * States again the round of every session left unsettled for a while: a change told the sessions
 * unit its round but did not commit here (a crash, a lost answer, the database), so the two units may
 * disagree until then. A change in progress settles its own round within moments; the task waits
 * `graceMs` so as not to race it. Replicas may run it side by side: round versions keep the latest.
 */
export function startRoundSyncTask(options: {
  db: Database;
  logger: Logger;
  intervalMs: number;
  graceMs: number;
  context: (em: ReturnType<Database['fork']>) => StoriesContext;
}) {
  return startPeriodicTask({
    name: 'round-sync',
    intervalMs: options.intervalMs,
    logger: options.logger,
    tick: async (stopped) => {
      for (const sessionId of await unsettledRounds(options.db.fork(), options.graceMs)) {
        if (stopped()) return;
        try {
          await resyncRound(options.context(options.db.fork()), sessionId);
          options.logger.info({ session_id: sessionId }, 'round stated again');
        } catch (err) {
          options.logger.warn({ err, session_id: sessionId }, 'could not state the round again, will retry');
        }
      }
    },
  });
}
