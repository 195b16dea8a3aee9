import { Router } from 'express';
import { browserBinding, send, signedIn, toAuthorization, validate } from '@pp/http';
import { integrationsApi as api } from '../api/docs.ts';
import { finishOAuth } from '../use-cases/finish-oauth.use-case.ts';
import { redirectUri, startOAuth } from '../use-cases/start-oauth.use-case.ts';
import type { IntegrationsContext } from '../use-cases/shared/context.ts';
import { userId, type RouteDeps } from './deps.ts';

/**
 * The cookie that binds an OAuth connection's state to the browser that started it: sent to that
 * provider's callback only (so never beside the sign-on's, whose callback is identity's).
 */
const connectionCookie = (ctx: IntegrationsContext) =>
  browserBinding('pp_oauth_connection', (provider) => ({
    url: redirectUri(ctx, provider),
    maxAgeSeconds: ctx.stateTtlSeconds,
  }));

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
      connectionCookie(ctx).set(res, params.provider, browserNonce);
      toAuthorization(req, res, location);
    }),
  );
  router.get(
    '/integrations/oauth/:provider/callback',
    validate(api['GET /integrations/oauth/{provider}/callback'], async ({ params, query }, req, res) => {
      const ctx = deps.context();
      const cookie = connectionCookie(ctx);
      const browserNonce = cookie.of(req);
      // Cleared at every callback, whatever its outcome: the browser's flow ends there. Only for a
      // provider with an OAuth app: the cookie's path is built from the name.
      if (Object.hasOwn(ctx.oauthApps, params.provider)) cookie.clear(res, params.provider);
      const caller = req.identity?.kind === 'user' ? req.identity.sub : undefined;
      const connection = await finishOAuth(ctx, params.provider, { ...query, browserNonce }, caller);
      res.setHeader('Cache-Control', 'no-store');
      send(res, 201, { connection }, 'Connection created');
    }),
  );
  return router;
}
