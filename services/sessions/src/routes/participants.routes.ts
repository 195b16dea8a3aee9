import { Router } from 'express';
import { pageMeta, requireUser, send, signedIn, validate } from '@pp/http';
import { sessionsApi as api } from '../api/docs.ts';
import { changeParticipantRole } from '../use-cases/change-participant-role.use-case.ts';
import { joinSession } from '../use-cases/join-session.use-case.ts';
import { listSessionParticipants } from '../use-cases/list-participants.use-case.ts';
import { removeParticipant } from '../use-cases/remove-participant.use-case.ts';
import type { RouteDeps } from './deps.ts';
import { participantView, publicSessionView, roomParticipantView, sessionView } from './views.ts';

export function participantRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.post(
    '/sessions/:code/join',
    validate(api['POST /sessions/{code}/join'], async ({ params, body }, req, res) => {
      const { session, facts, participant } = await joinSession(
        deps.context(),
        params.code,
        req.identity,
        body,
      );
      const isOwner = req.identity?.kind === 'user' && req.identity.sub === session.ownerId;
      const view = isOwner ? sessionView : publicSessionView;
      send(res, 200, {
        participant: { ...participantView(participant), token: participant.token },
        session: view(session, facts),
      });
    }),
  );
  router.get(
    '/sessions/:code/participants',
    validate(api['GET /sessions/{code}/participants'], async ({ params, query }, _req, res) => {
      const { participants, connected, page } = await listSessionParticipants(deps.context(), params.code, {
        page: query.page,
        perPage: query.per_page,
      });
      const meta = page && pageMeta(page.page, page.perPage, page.total);
      const listed = participants.map((p) => roomParticipantView(p, connected));
      send(res, 200, { participants: listed, ...(meta && { meta }) });
    }),
  );
  router.patch(
    '/sessions/:code/participants/:id',
    signedIn,
    validate(api['PATCH /sessions/{code}/participants/{id}'], async ({ params, body }, req, res) => {
      const participant = await changeParticipantRole(
        deps.context(),
        params.code,
        requireUser(req).sub,
        params.id,
        body.role,
      );
      send(res, 200, { participant: participantView(participant) });
    }),
  );
  router.delete(
    '/sessions/:code/participants/:id',
    signedIn,
    validate(api['DELETE /sessions/{code}/participants/{id}'], async ({ params }, req, res) => {
      const participant = await removeParticipant(
        deps.context(),
        params.code,
        requireUser(req).sub,
        params.id,
      );
      send(res, 200, { participant: participantView(participant) }, 'Participant removed');
    }),
  );
  return router;
}
