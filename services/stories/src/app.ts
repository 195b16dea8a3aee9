import type { Express } from 'express';
import type { EntityManager } from '@pp/db';
import { createRuntimeApp, type ServiceDefinition, type ServiceRuntime } from '@pp/runtime';
import { startVoteDeadlineTask } from './background/vote-deadline.task.ts';
import { createSessionsClient, type SessionsClient } from './clients/sessions.client.ts';
import type { Config } from './config.ts';
import { entities } from './db/entities/index.ts';
import { migrations } from './db/migrations/index.ts';
import { sessionEventsConsumer } from './events/consumers/session-events.consumer.ts';
import { participantEventsConsumer } from './events/consumers/participant-events.consumer.ts';
import { voteCastConsumer } from './events/consumers/vote-cast.consumer.ts';
import { sessionStoriesRoutes } from './routes/session-stories.routes.ts';
import { storiesRoutes } from './routes/stories.routes.ts';
import type { StoriesContext } from './use-cases/context.ts';

export type ContextFactory = (em: EntityManager) => StoriesContext;

/** The stories service's HTTP API: stories, reveals, consensus, export. Never listens by itself. */
export function createApp(runtime: ServiceRuntime, config: Config, context: ContextFactory): Express {
  const deps = { context: () => context(runtime.db.em()) };
  return createRuntimeApp(runtime, config.INTERNAL_SIGNING_KEY, (app) => {
    app.use(sessionStoriesRoutes(deps));
    app.use(storiesRoutes(deps));
  });
}

export interface StoriesOptions {
  /** A clock for tests; the real one by default. */
  now?: () => Date;
}

/** The whole service for libs/runtime: database, HTTP API, session.* and vote.cast consumers, deadline task. */
export function definition(config: Config, options: StoriesOptions = {}): ServiceDefinition {
  const now = options.now ?? (() => new Date());
  let sessions: SessionsClient | undefined;
  const sessionsClient = (runtime: ServiceRuntime) =>
    (sessions ??= createSessionsClient({
      baseURL: config.SESSIONS_URL,
      signingKey: config.INTERNAL_SIGNING_KEY,
      logger: runtime.logger,
      timeoutMs: config.SESSIONS_TIMEOUT_MS,
    }));
  const contextFor =
    (runtime: ServiceRuntime, afterCommit = false): ContextFactory =>
    (em) => ({
      em,
      sessions: sessionsClient(runtime),
      now,
      logger: runtime.logger,
      // A consumer's transaction commits after its handler returns: kick the relay just after that.
      publish: afterCommit
        ? () => void setTimeout(() => runtime.relay.kick(), 25)
        : () => runtime.relay.kick(),
    });

  return {
    name: 'stories',
    config,
    entities,
    migrations,
    createApp: (runtime) => createApp(runtime, config, contextFor(runtime)),
    consumers: (runtime) => [
      sessionEventsConsumer(runtime.bus.prefix),
      voteCastConsumer(runtime.bus.prefix, contextFor(runtime, true)),
      participantEventsConsumer(runtime.bus.prefix, contextFor(runtime, true)),
    ],
    background: (runtime) => [
      startVoteDeadlineTask({
        db: runtime.db,
        logger: runtime.logger,
        intervalMs: config.VOTE_BY_POLL_MS,
        now,
        context: contextFor(runtime),
      }),
    ],
  };
}
