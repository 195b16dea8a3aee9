import { Router } from 'express';
import { send, signedIn, validate } from '@pp/http';
import { integrationsApi as api } from '../api/docs.ts';
import { finishOAuth } from '../use-cases/finish-oauth.use-case.ts';
import { startOAuth } from '../use-cases/start-oauth.use-case.ts';
import { userId, type RouteDeps } from './deps.ts';

/** OAuth connections: the start (signed in) and the provider's redirect back (public: the state tells who). */
export function oauthRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.get(
    '/integrations/oauth/:provider/start',
    signedIn,
    validate(api['GET /integrations/oauth/{provider}/start'], async ({ params, query }, req, res) => {
      const location = await startOAuth(deps.context(), userId(req), params.provider, query.name);
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, location);
    }),
  );
  router.get(
    '/integrations/oauth/:provider/callback',
    validate(api['GET /integrations/oauth/{provider}/callback'], async ({ params, query }, req, res) => {
      const caller = req.identity?.kind === 'user' ? req.identity.sub : undefined;
      const connection = await finishOAuth(deps.context(), params.provider, query, caller);
      res.setHeader('Cache-Control', 'no-store');
      send(res, 201, { connection }, 'Connection created');
    }),
  );
  return router;
}
