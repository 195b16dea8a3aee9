import { Router } from 'express';
import { requireUser, send, validate } from '@pp/http';
import { identityApi as api } from '../api/docs.ts';
import { getCurrentUser } from '../use-cases/get-current-user.use-case.ts';
import { logIn } from '../use-cases/log-in.use-case.ts';
import { registerUser } from '../use-cases/register-user.use-case.ts';
import type { RouteDeps } from './deps.ts';
import { authView, userView } from './views.ts';

export function authRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.post(
    '/auth/register',
    validate(api['POST /auth/register'], async ({ body }, _req, res) => {
      send(res, 201, authView(await registerUser(deps.context(), body)));
    }),
  );
  router.post(
    '/auth/login',
    validate(api['POST /auth/login'], async ({ body }, _req, res) => {
      send(res, 200, authView(await logIn(deps.context(), body)));
    }),
  );
  router.get('/auth/me', async (req, res) => {
    const user = await getCurrentUser(deps.context(), requireUser(req).sub);
    send(res, 200, { user: userView(user) });
  });
  return router;
}
