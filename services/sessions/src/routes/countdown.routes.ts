import { Router } from 'express';
import { requireUser, send, signedIn, validate } from '@pp/http';
import { sessionsApi as api } from '../api/docs.ts';
import { startCountdown } from '../use-cases/start-countdown.use-case.ts';
import { stopCountdown } from '../use-cases/stop-countdown.use-case.ts';
import type { RouteDeps } from './deps.ts';

/** The open round's countdown (owner): start it (again), stop it. */
export function countdownRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.post(
    '/sessions/:code/countdown',
    signedIn,
    validate(api['POST /sessions/{code}/countdown'], async ({ params, body }, req, res) => {
      const countdown = await startCountdown(deps.context(), params.code, requireUser(req).sub, body);
      send(res, 200, { countdown });
    }),
  );
  router.delete(
    '/sessions/:code/countdown',
    signedIn,
    validate(api['DELETE /sessions/{code}/countdown'], async ({ params }, req, res) => {
      const stopped = await stopCountdown(deps.context(), params.code, requireUser(req).sub);
      send(res, 200, { stopped, countdown: null });
    }),
  );
  return router;
}
