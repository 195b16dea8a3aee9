import { Router } from 'express';
import { browserBinding, envelope, send, toAuthorization, validate } from '@pp/http';
import { identityApi as api } from '../api/docs.ts';
import { completeSocialSignIn } from '../use-cases/complete-social-sign-in.use-case.ts';
import { redirectUriFor, startSocialSignIn } from '../use-cases/start-social-sign-in.use-case.ts';
import type { RouteDeps } from './deps.ts';
import { authView } from './views.ts';

export function oauthRoutes(deps: RouteDeps): Router {
  // Binds a sign-on's state to the browser that started it: sent to that provider's callback only.
  const cookie = browserBinding('pp_sign_on', (provider) => ({
    url: redirectUriFor(deps.config, provider),
    maxAgeSeconds: deps.config.OAUTH_STATE_TTL_SECONDS,
  }));
  const router = Router();
  router.get('/auth/oauth/providers', (_req, res) => {
    send(res, 200, { providers: deps.providers.map((p) => ({ id: p.id, name: p.name })) });
  });
  router.get(
    '/auth/oauth/:provider/start',
    validate(api['GET /auth/oauth/{provider}/start'], async ({ params }, req, res) => {
      const { authorizationUrl, browserNonce } = await startSocialSignIn(
        deps.context(),
        deps.providers,
        params.provider,
      );
      cookie.set(res, params.provider, browserNonce);
      toAuthorization(req, res, authorizationUrl);
    }),
  );
  router.get(
    '/auth/oauth/:provider/callback',
    validate(api['GET /auth/oauth/{provider}/callback'], async ({ params, query }, req, res) => {
      const browserNonce = cookie.of(req);
      // Cleared at every callback, whatever its outcome: the browser's sign-on ends there. Only for a
      // configured provider: the cookie's path is built from the name.
      if (deps.oauthClients.has(params.provider)) cookie.clear(res, params.provider);
      const result = authView(
        await completeSocialSignIn(deps.context(), deps.oauthClients, params.provider, {
          ...query,
          browserNonce,
        }),
      );
      res.setHeader('Cache-Control', 'no-store');
      const returnUrl = deps.config.OAUTH_RETURN_URL;
      if (!returnUrl) return send(res, 200, result);
      // The token travels in the fragment: browsers never send it to a server or put it in a Referer.
      const fragment = new URLSearchParams({
        token: result.token,
        token_type: 'Bearer',
        expires_at: result.expires_at ?? '',
      });
      const location = `${returnUrl.split('#')[0]}#${fragment.toString()}`;
      res
        .status(302)
        .location(location)
        .json(envelope({ user: result.user }));
    }),
  );
  return router;
}
