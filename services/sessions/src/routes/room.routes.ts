import { Router } from 'express';
import { validate } from '@pp/http';
import { sessionsApi as api } from '../api/docs.ts';
import type { RoomHub } from '../background/room-hub.ts';
import { followRoom } from '../use-cases/follow-room.use-case.ts';
import type { RouteDeps } from './deps.ts';

/** The live room: a Server-Sent Events stream of what happens in a session (public, like the lookup). */
export function roomRoutes(deps: RouteDeps, hub: RoomHub): Router {
  const router = Router();
  router.get(
    '/sessions/:code/events',
    validate(api['GET /sessions/{code}/events'], async ({ params }, req, res) => {
      const room = await followRoom(deps.context(), params.code);
      await hub.open(req, res, room.sessionId, room.missedSince);
    }),
  );
  return router;
}
