import { Router } from 'express';
import { validate } from '@pp/http';
import { codeParams } from '../api/schemas.ts';
import type { RoomHub } from '../live/room-hub.ts';
import { findSession } from '../use-cases/find-session.ts';
import { replayRoomEvents } from '../use-cases/replay-room-events.use-case.ts';
import type { RouteDeps } from './deps.ts';

/** The live room: a Server-Sent Events stream of what happens in a session (public, like the lookup). */
export function roomRoutes(deps: RouteDeps, hub: RoomHub): Router {
  const router = Router();
  router.get(
    '/sessions/:code/events',
    validate({ params: codeParams }, async ({ params }, req, res) => {
      const ctx = deps.context();
      const session = await findSession(ctx.em, params.code);
      await hub.open(req, res, session.id, (lastId) => replayRoomEvents(ctx, session.id, lastId));
    }),
  );
  return router;
}
