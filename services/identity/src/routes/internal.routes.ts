import { Router } from 'express';
import { requireService, sendToUnit, validate } from '@pp/http';
import { introspectBody } from '../api/schemas.ts';
import { introspectToken } from '../use-cases/introspect-token.use-case.ts';
import type { RouteDeps } from './deps.ts';

/** Endpoints for other units only (the gateway): never proxied, refused without a signed service identity. */
export function internalRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.post(
    '/internal/tokens/introspect',
    requireService,
    validate({ body: introspectBody }, async ({ body }, _req, res) => {
      const result = await introspectToken(deps.context(), body.token);
      res.setHeader('Cache-Control', 'no-store');
      sendToUnit(res, 200, result);
    }),
  );
  return router;
}
