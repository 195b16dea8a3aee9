import { Router } from 'express';
import { requireService, send, validate } from '@pp/http';
import { internalSessionParams, roundParams } from '../api/schemas.ts';
import { getRoundStats } from '../use-cases/get-round-stats.use-case.ts';
import { getSessionSnapshot } from '../use-cases/get-session-snapshot.use-case.ts';
import { resetRound } from '../use-cases/reset-round.use-case.ts';
import { sealRound } from '../use-cases/seal-round.use-case.ts';
import type { RouteDeps } from './deps.ts';

/** Endpoints for other units only (the stories service): never proxied, refused without a signed service identity. */
export function internalRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.use('/internal', requireService);
  router.get(
    '/internal/sessions/:codeOrId',
    validate({ params: internalSessionParams }, async ({ params }, _req, res) => {
      send(res, 200, { session: await getSessionSnapshot(deps.context(), params.codeOrId) });
    }),
  );
  router.get(
    '/internal/sessions/:sessionId/stories/:storyId/stats',
    validate({ params: roundParams }, async ({ params }, _req, res) => {
      send(res, 200, await getRoundStats(deps.context(), params.sessionId, params.storyId));
    }),
  );
  router.post(
    '/internal/sessions/:sessionId/stories/:storyId/seal',
    validate({ params: roundParams }, async ({ params }, _req, res) => {
      send(res, 200, await sealRound(deps.context(), params.sessionId, params.storyId));
    }),
  );
  router.post(
    '/internal/sessions/:sessionId/stories/:storyId/reset',
    validate({ params: roundParams }, async ({ params }, _req, res) => {
      send(res, 200, await resetRound(deps.context(), params.sessionId, params.storyId));
    }),
  );
  return router;
}
