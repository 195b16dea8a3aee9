import { Router } from 'express';
import { send, signedIn, validate } from '@pp/http';
import { integrationsApi as api } from '../api/docs.ts';
import { finishOAuth } from '../use-cases/finish-oauth.use-case.ts';
import { startOAuth } from '../use-cases/start-oauth.use-case.ts';
import { userId, type RouteDeps } from './deps.ts';
import { clearOAuthCookie, oauthCookieOf, setOAuthCookie } from './oauth-cookie.ts';

/**
 * OAuth connections: the start (signed in) and the provider's redirect back (public: the state tells
 * who, and the cookie start set tells that it is the browser that started).
 */
export function oauthRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.get(
    '/integrations/oauth/:provider/start',
    signedIn,
    validate(api['GET /integrations/oauth/{provider}/start'], async ({ params, query }, req, res) => {
      const ctx = deps.context();
      const { location, browserNonce } = await startOAuth(ctx, userId(req), params.provider, query.name);
      setOAuthCookie(res, ctx, params.provider, browserNonce);
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, location);
    }),
  );
  router.get(
    '/integrations/oauth/:provider/callback',
    validate(api['GET /integrations/oauth/{provider}/callback'], async ({ params, query }, req, res) => {
      const ctx = deps.context();
      const browserNonce = oauthCookieOf(req);
      // Cleared at every callback, whatever its outcome: the browser's flow ends there. Only for a
      // provider with an OAuth app: the cookie's path is built from the name.
      if (Object.hasOwn(ctx.oauthApps, params.provider)) clearOAuthCookie(res, ctx, params.provider);
      const caller = req.identity?.kind === 'user' ? req.identity.sub : undefined;
      const connection = await finishOAuth(ctx, params.provider, { ...query, browserNonce }, caller);
      res.setHeader('Cache-Control', 'no-store');
      send(res, 201, { connection }, 'Connection created');
    }),
  );
  return router;
}
