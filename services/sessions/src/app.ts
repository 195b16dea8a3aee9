import type { Express } from 'express';
import { customAlphabet } from 'nanoid';
import { mountNotYetAvailable } from '@pp/http';
import { createRuntimeApp, type ServiceRuntime } from '@pp/runtime';
import type { Config } from './config.ts';
import { CODE_ALPHABET, CODE_LENGTH } from './domain/session-code.ts';
import { builtInDefaults, type SessionSettings } from './domain/session-settings.ts';
import type { RoomHub } from './live/room-hub.ts';
import type { RouteDeps } from './routes/deps.ts';
import { internalRoutes } from './routes/internal.routes.ts';
import { participantRoutes } from './routes/participants.routes.ts';
import { roomRoutes } from './routes/room.routes.ts';
import { sessionRoutes } from './routes/sessions.routes.ts';
import { voteRoutes } from './routes/votes.routes.ts';
import { voteScenes } from './use-cases/vote-scenes.ts';

export interface AppOptions {
  now?: () => Date;
  /** The settings a new session starts with (the owner's workspace defaults, once workspaces exist). */
  defaults?: (ownerId: string) => Promise<SessionSettings>;
  /** Session code candidates (tests force collisions with it). */
  newCode?: () => string;
}

/** The sessions service: sessions, participants, votes, rounds. Never listens by itself. */
export function createApp(
  config: Config,
  runtime: ServiceRuntime,
  hub: RoomHub,
  options: AppOptions = {},
): Express {
  const now = options.now ?? (() => new Date());
  const defaults = options.defaults ?? (async () => builtInDefaults);
  const newCode = options.newCode ?? customAlphabet(CODE_ALPHABET, CODE_LENGTH);
  const scenes = voteScenes();
  const deps: RouteDeps = {
    context: () => ({
      em: runtime.db.em(),
      publish: () => runtime.relay.kick(),
      now,
      defaults,
      newCode,
      voteScenes: scenes,
    }),
  };
  return createRuntimeApp(runtime, config.INTERNAL_SIGNING_KEY, (app) => {
    app.use(sessionRoutes(deps));
    app.use(participantRoutes(deps));
    app.use(voteRoutes(deps));
    app.use(roomRoutes(deps, hub));
    app.use(internalRoutes(deps));
    // Folders, the workspace with its templates, and the MCP server come later: 503 until then.
    mountNotYetAvailable(
      app,
      ['/folders', '/folders/*rest', '/workspace', '/workspace/*rest', '/mcp'],
      'sessions',
    );
  });
}
