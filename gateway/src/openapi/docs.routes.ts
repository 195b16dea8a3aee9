import { Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import type { UnitDocuments } from './unit-documents.ts';

/**
 * GET /openapi.json (the route table with the units' own descriptions) and a human page at /docs
 * that reads it (swagger-ui serves its own assets, no CDN).
 */
export function docsRoutes(documents: UnitDocuments): Router {
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(documents.text());
  });
  router.use('/docs', swaggerUi.serve);
  router.get(
    '/docs',
    swaggerUi.setup(undefined, {
      customSiteTitle: 'Planning Poker API',
      swaggerOptions: { url: '/openapi.json' },
    }),
  );
  return router;
}
