import type { BackgroundTask, ConsumerSpec, ServiceRuntime } from '@pp/runtime';
import type { Config } from '../config.ts';
import type { ContextFactory } from '../use-cases/shared/context.ts';
import { countdownEventsConsumer } from './countdown-events.consumer.ts';
import { participantEventsConsumers } from './participant-events.consumer.ts';
import { startRoundSyncTask } from './round-sync.task.ts';
import { sessionEventsConsumer } from './session-events.consumer.ts';
import { voteCastConsumer } from './vote-cast.consumer.ts';
import { startStoryHistoryPruningTask } from './story-history-pruning.task.ts';
import { startVoteDeadlineTask } from './vote-deadline.task.ts';

export { RETIRED_PARTICIPANTS_CONSUMER } from './participant-events.consumer.ts';

/**
 * What the stories unit does outside requests: it keeps its read model of sessions, and reveals by
 * itself when everyone has voted (auto-reveal), the vote-by deadline has passed or a round's countdown
 * reached zero.
 */
export const consumers = (runtime: ServiceRuntime, context: ContextFactory): ConsumerSpec[] => [
  sessionEventsConsumer(runtime.bus.prefix, context),
  voteCastConsumer(runtime.bus.prefix, context),
  ...participantEventsConsumers(runtime.bus.prefix, context),
  countdownEventsConsumer(runtime.bus.prefix),
];

/** The vote-by deadline and round countdowns, stating again the rounds left unsettled, and the story history's upkeep. */
export const tasks = (
  runtime: ServiceRuntime,
  config: Config,
  context: ContextFactory,
  now: () => Date,
): BackgroundTask[] => [
  startVoteDeadlineTask({
    db: runtime.db,
    logger: runtime.logger,
    intervalMs: config.VOTE_BY_POLL_MS,
    now,
    context,
  }),
  startRoundSyncTask({
    db: runtime.db,
    logger: runtime.logger,
    intervalMs: config.ROUND_SYNC_INTERVAL_MS,
    graceMs: config.ROUND_SYNC_GRACE_MS,
    context,
  }),
  startStoryHistoryPruningTask({ db: runtime.db, logger: runtime.logger, now }),
];
