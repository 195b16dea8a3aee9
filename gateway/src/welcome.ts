import { Router } from 'express';
import { send } from '@pp/http';

/** Where to start, for whoever opens the API's root: the docs, the OpenAPI document, the probe. */
const links = { docs: '/docs', openapi: '/openapi.json', health: '/healthz' };

/** `GET /`: a small welcome in the API's envelope (answered by the gateway itself, never rate-limited). */
export function welcomeRouter(): Router {
  const router = Router();
  router.get('/', (_req, res) => send(res, 200, links, 'Planning poker API'));
  return router;
}
