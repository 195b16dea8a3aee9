import { Router } from 'express';
import { pageMeta, requireUser, send, signedIn, validate } from '@pp/http';
import { sessionsApi as api } from '../api/docs.ts';
import { createSession } from '../use-cases/create-session.use-case.ts';
import { listOwnSessions } from '../use-cases/list-sessions.use-case.ts';
import { lookUpSession } from '../use-cases/look-up-session.use-case.ts';
import { updateSession } from '../use-cases/update-session.use-case.ts';
import type { RouteDeps } from './deps.ts';
import { publicSessionView, sessionView } from './views.ts';

export function sessionRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.get(
    '/sessions',
    signedIn,
    validate(api['GET /sessions'], async ({ query }, req, res) => {
      const user = requireUser(req);
      const { sessions, total } = await listOwnSessions(deps.context(), {
        ownerId: user.sub,
        folderId: query.folder_id === 'none' ? null : query.folder_id,
        status: query.status,
        sort: query.sort,
        order: query.order,
        page: query.page,
        perPage: query.per_page,
      });
      const meta = pageMeta(query.page, query.per_page, total);
      send(res, 200, { sessions: sessions.map((s) => sessionView(s.session, s.facts)), meta });
    }),
  );
  router.post(
    '/sessions',
    signedIn,
    validate(api['POST /sessions'], async ({ body }, req, res) => {
      const session = await createSession(deps.context(), requireUser(req).sub, body);
      send(res, 201, { session: sessionView(session) }, 'Session created');
    }),
  );
  router.get(
    '/sessions/:code',
    validate(api['GET /sessions/{code}'], async ({ params }, req, res) => {
      const found = await lookUpSession(deps.context(), params.code, req.identity);
      const view = found.isOwner ? sessionView : publicSessionView;
      send(res, 200, { session: view(found.session, found.facts) });
    }),
  );
  router.patch(
    '/sessions/:code',
    signedIn,
    validate(api['PATCH /sessions/{code}'], async ({ params, body }, req, res) => {
      const { session, facts } = await updateSession(deps.context(), params.code, requireUser(req).sub, body);
      send(res, 200, { session: sessionView(session, facts) });
    }),
  );
  return router;
}
