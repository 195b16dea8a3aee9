import express, { type Express } from 'express';
import { errorHandler, metricsRouter, notFoundHandler } from '@pp/http';
import type { Logger } from '@pp/logger';

/**
 * The gateway's metrics for the operator's scraper, on a port of its own (METRICS_PORT): the public
 * API has no /metrics, which would tell anyone every route's traffic and cost them nothing to ask.
 */
export function metricsApp(logger: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(metricsRouter());
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}
