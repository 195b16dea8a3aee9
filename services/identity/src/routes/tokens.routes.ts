import { Router, type Request } from 'express';
import { requireUser, send, validate, type Identity } from '@pp/http';
import { identityApi as api } from '../api/docs.ts';
import { createPersonalToken } from '../use-cases/create-personal-token.use-case.ts';
import { listTokens } from '../use-cases/list-personal-tokens.use-case.ts';
import { revokeToken } from '../use-cases/revoke-token.use-case.ts';
import { AccessTokenRequiredError } from '../errors.ts';
import type { RouteDeps } from './deps.ts';
import { tokenView } from './views.ts';

/** The signed-in user, when signed in with an access token (not an API or MCP token); else a 403. */
function requireSignedInWithAccessToken(req: Request): Identity {
  const user = requireUser(req);
  if (user.token_kind !== 'access') throw new AccessTokenRequiredError();
  return user;
}

export function tokenRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.post(
    '/auth/tokens',
    validate(api['POST /auth/tokens'], async ({ body }, req, res) => {
      const user = requireSignedInWithAccessToken(req);
      const { token, secret } = await createPersonalToken(deps.context(), user.sub, {
        name: body.name,
        kind: body.kind,
        expiresAt: body.expires_at ? new Date(body.expires_at) : undefined,
      });
      send(res, 201, { token: { ...tokenView(token), token: secret } });
    }),
  );
  router.get('/auth/tokens', async (req, res) => {
    const tokens = await listTokens(deps.context(), requireSignedInWithAccessToken(req).sub);
    send(res, 200, { tokens: tokens.map(tokenView) });
  });
  router.delete(
    '/auth/tokens/:id',
    validate(api['DELETE /auth/tokens/{id}'], async ({ params }, req, res) => {
      const token = await revokeToken(deps.context(), requireUser(req).sub, params.id);
      send(
        res,
        200,
        { token: { ...tokenView(token), revoked_at: token.revokedAt?.toISOString() ?? null } },
        'Token revoked',
      );
    }),
  );
  return router;
}
