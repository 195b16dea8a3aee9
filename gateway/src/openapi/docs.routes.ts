import { Router } from 'express';
import swaggerUi from 'swagger-ui-express';

/** GET /openapi.json and a human page at /docs (swagger-ui serves its own assets, no CDN). */
export function docsRoutes(document: object): Router {
  const router = Router();
  const body = JSON.stringify(document);
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(body);
  });
  router.use('/docs', swaggerUi.serve);
  router.get('/docs', swaggerUi.setup(document, { customSiteTitle: 'Planning Poker API' }));
  return router;
}
