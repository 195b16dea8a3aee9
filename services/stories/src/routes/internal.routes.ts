import { Router } from 'express';
import { archivingNotice } from '@pp/contracts';
import { requireService, sendToUnit, validate, ValidationError } from '@pp/http';
import { addStoriesBody, autoRevealBody, internalSessionParams, storyHistoryQuery } from '../api/schemas.ts';
import { addStories } from '../use-cases/add-stories.use-case.ts';
import { keepArchivingSession } from '../use-cases/keep-session-snapshot.use-case.ts';
import { listStoryHistory } from '../use-cases/list-story-history.use-case.ts';
import { revealIfComplete } from '../use-cases/reveal-if-complete.use-case.ts';
import type { RouteDeps } from './deps.ts';

/** Endpoints for other units only: never proxied, refused without a signed service identity. */
export function internalRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.use('/internal', requireService);
  router.post(
    '/internal/sessions/:sessionId/stories',
    validate({ params: internalSessionParams, body: addStoriesBody }, async ({ params, body }, _req, res) => {
      sendToUnit(res, 200, { stories: await addStories(deps.context(), params.sessionId, body.stories) });
    }),
  );
  router.post(
    '/internal/sessions/:sessionId/auto-reveal',
    validate({ params: internalSessionParams, body: autoRevealBody }, async ({ params, body }, _req, res) => {
      sendToUnit(res, 200, {
        revealed: await revealIfComplete(deps.context(), params.sessionId, body.story_id),
      });
    }),
  );
  router.put(
    '/internal/sessions/:sessionId/archiving',
    validate(
      { params: internalSessionParams, body: archivingNotice },
      async ({ params, body }, _req, res) => {
        if (body.session.id !== params.sessionId.toLowerCase())
          throw new ValidationError({ 'session.id': ['is not the session of the path'] });
        await keepArchivingSession(deps.context(), body);
        sendToUnit(res, 200, {});
      },
    ),
  );
  router.get(
    '/internal/sessions/:sessionId/history',
    validate(
      { params: internalSessionParams, query: storyHistoryQuery },
      async ({ params, query }, _req, res) => {
        sendToUnit(res, 200, {
          events: await listStoryHistory(deps.context(), params.sessionId, query.limit),
        });
      },
    ),
  );
  return router;
}
