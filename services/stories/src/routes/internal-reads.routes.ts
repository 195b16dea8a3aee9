import { Router } from 'express';
import { storiesForUnitsQuery } from '@pp/contracts';
import { requireService, sendToUnit, validate } from '@pp/http';
import { internalSessionParams } from '../api/schemas.ts';
import { listStoriesForUnits } from '../use-cases/list-stories-for-units.use-case.ts';
import type { RouteDeps } from './deps.ts';

/** Reads for other units only (the assistant): never proxied, refused without a signed service identity. */
export function internalReadRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.use('/internal', requireService);
  router.get(
    '/internal/sessions/:sessionId/stories',
    validate(
      { params: internalSessionParams, query: storiesForUnitsQuery },
      async ({ params, query }, _req, res) => {
        const filter = { ids: query.ids, statuses: query.status };
        sendToUnit(res, 200, {
          stories: await listStoriesForUnits(deps.context(), params.sessionId, filter),
        });
      },
    ),
  );
  return router;
}
