import { Router } from 'express';
import { roundCommand } from '@pp/contracts';
import { requireService, sendToUnit, validate } from '@pp/http';
import { inSpan } from '@pp/telemetry';
import { internalSessionParams, moderatorQuestion, roundParams, sessionIdParams } from '../api/schemas.ts';
import { applyRoundCommand } from '../use-cases/apply-round-command.use-case.ts';
import { getRoundStats } from '../use-cases/get-round-stats.use-case.ts';
import { getSessionSnapshot } from '../use-cases/get-session-snapshot.use-case.ts';
import { findModerator } from '../use-cases/find-moderator.use-case.ts';
import type { RouteDeps } from './deps.ts';

/** Endpoints for other units only (the stories service): never proxied, refused without a signed service identity. */
export function internalRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.use('/internal', requireService);
  router.get(
    '/internal/sessions/:codeOrId',
    validate({ params: internalSessionParams }, async ({ params }, _req, res) => {
      sendToUnit(res, 200, { session: await getSessionSnapshot(deps.context(), params.codeOrId) });
    }),
  );
  router.put(
    '/internal/sessions/:sessionId/round',
    validate({ params: sessionIdParams, body: roundCommand }, async ({ params, body }, _req, res) => {
      // A span of its own: the step of a reveal (or a move of the round) a trace is looked at for.
      const answer = await inSpan(
        'sessions round command',
        { 'pp.session_id': params.sessionId, 'pp.round.kind': body.kind },
        () => applyRoundCommand(deps.context(), params.sessionId, body),
      );
      sendToUnit(res, 200, answer);
    }),
  );
  // The token goes in the body, not the path: it is a secret, and paths are logged.
  router.post(
    '/internal/sessions/:sessionId/moderator',
    validate({ params: sessionIdParams, body: moderatorQuestion }, async ({ params, body }, _req, res) => {
      sendToUnit(res, 200, {
        moderator: await findModerator(deps.context(), params.sessionId, body.participant_token),
      });
    }),
  );
  router.get(
    '/internal/sessions/:sessionId/stories/:storyId/stats',
    validate({ params: roundParams }, async ({ params }, _req, res) => {
      sendToUnit(res, 200, await getRoundStats(deps.context(), params.sessionId, params.storyId));
    }),
  );
  return router;
}
