import { Router } from 'express';
import { PARTICIPANT_TOKEN_HEADER, send, validate } from '@pp/http';
import { sessionsApi as api } from '../api/docs.ts';
import { castVote } from '../use-cases/cast-vote.use-case.ts';
import type { RouteDeps } from './deps.ts';

export function voteRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.post(
    '/sessions/:code/vote',
    validate(api['POST /sessions/{code}/vote'], async ({ params, body }, req, res) => {
      const { vote, stats } = await castVote(deps.context(), params.code, {
        participantId: body.participant_id,
        value: body.vote,
        token: req.get(PARTICIPANT_TOKEN_HEADER),
      });
      send(res, 200, {
        vote: { ...vote, updated_at: vote.updated_at.toISOString() },
        stats,
      });
    }),
  );
  return router;
}
