import { Router } from 'express';
import { namesRoomController, requireRoomController, send, validate } from '@pp/http';
import { sessionsApi as api } from '../api/docs.ts';
import { startCountdown } from '../use-cases/start-countdown.use-case.ts';
import { stopCountdown } from '../use-cases/stop-countdown.use-case.ts';
import type { RouteDeps } from './deps.ts';

/** The open round's countdown (the owner, or the room's moderator by its participant token): start it (again), stop it. */
export function countdownRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.post(
    '/sessions/:code/countdown',
    namesRoomController,
    validate(api['POST /sessions/{code}/countdown'], async ({ params, body }, req, res) => {
      const countdown = await startCountdown(deps.context(), params.code, requireRoomController(req), body);
      send(res, 200, { countdown });
    }),
  );
  router.delete(
    '/sessions/:code/countdown',
    namesRoomController,
    validate(api['DELETE /sessions/{code}/countdown'], async ({ params }, req, res) => {
      const stopped = await stopCountdown(deps.context(), params.code, requireRoomController(req));
      send(res, 200, { stopped, countdown: null });
    }),
  );
  return router;
}
