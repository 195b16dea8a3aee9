import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from '@pp/logger';
import { errorHandler, notFoundHandler, type ErrorMapper } from './error-handler.ts';
import { healthRouter, type ReadinessCheck } from './health.ts';
import { identityMiddleware } from './identity.ts';
import { metricsMiddleware, metricsRouter } from './metrics.ts';
import { requestContext } from './request-context.ts';
import { BadRequestError } from './errors.ts';

export interface ServiceAppOptions {
  logger: Logger;
  /** Key that verifies the signed identity header. */
  identityKey: string;
  readiness: Record<string, ReadinessCheck>;
  isShuttingDown?: () => boolean;
  bodyLimit?: string;
  errorMappers?: ErrorMapper[];
  /** Mounts the unit's own routes. */
  routes: (app: Express) => void;
}

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** A body that is there but not JSON is a bad request, not an empty one. */
export const requireJsonBody: RequestHandler = (req, _res, next) => {
  const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
  if (
    METHODS_WITH_BODY.has(req.method) &&
    hasBody &&
    !req.is('application/json') &&
    !req.is('application/*+json')
  ) {
    throw new BadRequestError(
      'The request body must be JSON (Content-Type: application/json)',
      'unsupported_content_type',
    );
  }
  next();
};

/** The express app every service shares: ids, logs, metrics, health, JSON bodies, one error shape. */
export function createServiceApp(options: ServiceAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(requestContext);
  app.use(metricsMiddleware);
  app.use(healthRouter(options.readiness, options.isShuttingDown));
  app.use(metricsRouter());
  app.use(requireJsonBody);
  app.use(
    express.json({ limit: options.bodyLimit ?? '256kb', type: ['application/json', 'application/*+json'] }),
  );
  app.use(identityMiddleware(options.identityKey));
  options.routes(app);
  app.use(notFoundHandler);
  app.use(errorHandler(options.logger, options.errorMappers));
  return app;
}
