import { Router } from 'express';
import { requireUser, send, signedIn, validate } from '@pp/http';
import { sessionsApi as api } from '../api/docs.ts';
import { listActivity } from '../use-cases/list-activity.use-case.ts';
import type { RouteDeps } from './deps.ts';

/** A session's recent events, for its owner (what the live room showed, as a list). */
export function activityRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.get(
    '/sessions/:code/activity',
    signedIn,
    validate(api['GET /sessions/{code}/activity'], async ({ params, query }, req, res) => {
      const activity = await listActivity(deps.context(), params.code, requireUser(req).sub, query.limit);
      send(res, 200, {
        activity: activity.map((e) => ({ ...e, occurred_at: e.occurred_at.toISOString() })),
      });
    }),
  );
  return router;
}
