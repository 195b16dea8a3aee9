import { Router } from 'express';
import { storiesForUnitsQuery } from '@pp/contracts';
import { requireService, sendToUnit, validate } from '@pp/http';
import { internalSessionParams } from '../api/schemas.ts';
import { listStoriesForUnits } from '../use-cases/list-stories-for-units.use-case.ts';
import { listSessionStories } from '../use-cases/list-session-stories.use-case.ts';
import type { RouteDeps } from './deps.ts';
import { roomStoryView } from './views.ts';

/**
 * Reads for other units only (the assistant; the sessions unit opening a room reads the room's view of
 * the stories, as GET /sessions/{code}/stories has it): never proxied, refused without a signed service identity. */
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
  router.get(
    '/internal/sessions/:sessionId/room-stories',
    validate({ params: internalSessionParams }, async ({ params }, _req, res) => {
      const { session, stories } = await listSessionStories(deps.context(), params.sessionId);
      sendToUnit(res, 200, { stories: stories.map((s) => roomStoryView(s, session)) });
    }),
  );
  return router;
}
