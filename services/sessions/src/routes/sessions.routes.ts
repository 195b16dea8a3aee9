import { Router } from 'express';
import { pageMeta, requireUser, send, validate } from '@pp/http';
import { codeParams, createSessionBody, listSessionsQuery, updateSessionBody } from '../api/schemas.ts';
import { createSession } from '../use-cases/create-session.use-case.ts';
import { listOwnSessions } from '../use-cases/list-sessions.use-case.ts';
import { lookUpSession } from '../use-cases/look-up-session.use-case.ts';
import { factsOf } from '../use-cases/session-facts.ts';
import { updateSession } from '../use-cases/update-session.use-case.ts';
import { signedIn, type RouteDeps } from './deps.ts';
import { publicSessionView, sessionView } from './views.ts';

export function sessionRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.get(
    '/sessions',
    signedIn,
    validate({ query: listSessionsQuery }, async ({ query }, req, res) => {
      const user = requireUser(req);
      const { sessions, total } = await listOwnSessions(deps.context(), {
        ownerId: user.sub,
        folderId: query.folder_id,
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
    validate({ body: createSessionBody }, async ({ body }, req, res) => {
      const session = await createSession(deps.context(), requireUser(req).sub, body);
      send(res, 201, { session: sessionView(session) }, 'Session created');
    }),
  );
  router.get(
    '/sessions/:code',
    validate({ params: codeParams }, async ({ params }, req, res) => {
      const found = await lookUpSession(deps.context(), params.code, req.identity);
      const view = found.isOwner ? sessionView : publicSessionView;
      send(res, 200, { session: view(found.session, found.facts) });
    }),
  );
  router.patch(
    '/sessions/:code',
    signedIn,
    validate({ params: codeParams, body: updateSessionBody }, async ({ params, body }, req, res) => {
      const ctx = deps.context();
      const session = await updateSession(ctx, params.code, requireUser(req).sub, body);
      send(res, 200, { session: sessionView(session, await factsOf(ctx.em, session)) });
    }),
  );
  return router;
}
