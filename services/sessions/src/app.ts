import type { Express } from 'express';
import { customAlphabet } from 'nanoid';
import { participantTokenKey } from '@pp/contracts';
import { mountNotYetAvailable } from '@pp/http';
import { createRuntimeApp, type ServiceDefinition, type ServiceRuntime } from '@pp/runtime';
import { sessionsApi } from './api/docs.ts';
import type { Config } from './config.ts';
import { entities } from './db/entities/index.ts';
import { migrations } from './db/migrations/index.ts';
import { CODE_ALPHABET, CODE_LENGTH } from './domain/session-code.ts';
import { tasks } from './background/index.ts';
import { OpenPresenceStreams } from './background/presence.task.ts';
import { createRoomHub, type RoomHub } from './background/room-hub.ts';
import { keepPublishedForRoom, lastRecordedForRoom } from './use-cases/shared/room-history.ts';
import { createStoriesClient } from './clients/stories.client.ts';
import type { RouteDeps } from './routes/deps.ts';
import { folderRoutes } from './routes/folders.routes.ts';
import { internalRoutes } from './routes/internal.routes.ts';
import { participantRoutes } from './routes/participants.routes.ts';
import { activityRoutes } from './routes/activity.routes.ts';
import { countdownRoutes } from './routes/countdown.routes.ts';
import { roomRoutes } from './routes/room.routes.ts';
import { sessionRoutes } from './routes/sessions.routes.ts';
import { voteRoutes } from './routes/votes.routes.ts';
import { workspaceRoutes } from './routes/workspace.routes.ts';
import { CommittedRounds } from './use-cases/shared/committed-rounds.ts';
import { voteScenes } from './use-cases/shared/vote-scenes.ts';
import { joinLines } from './use-cases/join-session.use-case.ts';

export interface AppOptions {
  now?: () => Date;
  /** Session code candidates (tests force collisions with it). */
  newCode?: () => string;
  /** What this replica has seen the stories unit commit (tests look into it). */
  committedRounds?: CommittedRounds;
}

/** The sessions service: sessions, participants, votes, rounds, folders, the workspace. Never listens by itself. */
export function createApp(
  config: Config,
  runtime: ServiceRuntime,
  hub: RoomHub,
  options: AppOptions = {},
  presence: OpenPresenceStreams = new OpenPresenceStreams(),
): Express {
  const now = options.now ?? (() => new Date());
  const newCode = options.newCode ?? customAlphabet(CODE_ALPHABET, CODE_LENGTH);
  const scenes = voteScenes();
  const committedRounds = options.committedRounds ?? new CommittedRounds();
  const stories = createStoriesClient({
    baseURL: config.STORIES_URL,
    signingKey: config.INTERNAL_SIGNING_KEY,
    logger: runtime.logger,
    timeoutMs: config.STORIES_TIMEOUT_MS,
  });
  const tokenKey = participantTokenKey(config.INTERNAL_SIGNING_KEY);
  const joins = joinLines();
  const deps: RouteDeps = {
    context: () => ({
      em: runtime.db.em(),
      publish: () => runtime.relay.kick(),
      now,
      newCode,
      voteScenes: scenes,
      committedRounds,
      stories,
      logger: runtime.logger,
      participantTokenKey: tokenKey,
      roomMaxParticipants: config.ROOM_MAX_PARTICIPANTS,
      joins,
    }),
  };
  return createRuntimeApp(
    runtime,
    config.INTERNAL_SIGNING_KEY,
    (app) => {
      // The busiest paths first: express tries the routes in order on every request.
      app.use(voteRoutes(deps));
      app.use(internalRoutes(deps));
      app.use(sessionRoutes(deps));
      app.use(participantRoutes(deps));
      app.use(roomRoutes(deps, hub, presence));
      app.use(countdownRoutes(deps));
      app.use(activityRoutes(deps));
      app.use(folderRoutes(deps));
      app.use(workspaceRoutes(deps));
      // The MCP server comes later: 503 until then.
      mountNotYetAvailable(app, ['/mcp'], 'sessions');
    },
    sessionsApi,
    // A template's stories come in one body (the gateway's own limit is 1 MB).
    { bodyLimit: '1mb' },
  );
}

/** The sessions service as libs/runtime runs it (main.ts and the tests). */
export function definition(config: Config, options: AppOptions = {}): ServiceDefinition {
  let hub: RoomHub | undefined;
  const committedRounds = options.committedRounds ?? new CommittedRounds();
  const presence = new OpenPresenceStreams();
  return {
    name: 'sessions',
    config,
    entities,
    migrations,
    createApp: (runtime) => {
      hub = createRoomHub({
        nc: runtime.nc,
        bus: runtime.bus,
        logger: runtime.logger,
        isShuttingDown: runtime.isShuttingDown,
        record: (events) => keepPublishedForRoom(runtime.db.fork(), events),
        lastRecorded: () => lastRecordedForRoom(runtime.db.fork()),
        maxUnsentBytes: config.ROOM_STREAM_MAX_UNSENT_BYTES,
        onStoriesCommitted: (sessionId, version) => committedRounds.committed(sessionId, version),
      });
      return createApp(config, runtime, hub, { ...options, committedRounds }, presence);
    },
    // No durable consumer: the room's live feed records what the room shows (background/room-hub.ts).
    // These wrote the room's record before.
    retiredConsumers: ['sessions-room', 'sessions-stories'],
    background: (runtime) => tasks(runtime, hub, config, presence),
    // vote.cast counts the round again as it is published (see 0014-vote-counts-as-published).
    outboxClaim: 'sessions_outbox_claim',
  };
}
