import { isUtf8 } from 'node:buffer';
import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from '@pp/logger';
import { errorHandler, notFoundHandler, type ErrorMapper } from './error-handler.ts';
import { healthRouter, type ReadinessCheck } from './health.ts';
import { identityMiddleware } from './identity.ts';
import { metricsMiddleware, metricsRouter } from './metrics.ts';
import { requestContext } from './request-context.ts';
import { checkBodyLimits } from './body-limits.ts';
import { AppError } from './errors.ts';

export interface ServiceAppOptions {
  logger: Logger;
  /** This unit's name: the audience a signed identity header must name to be taken. */
  unit: string;
  /** Key that verifies the signed identity header. */
  identityKey: string;
  readiness: Record<string, ReadinessCheck>;
  isShuttingDown?: () => boolean;
  bodyLimit?: string;
  /** The most keys and array elements a JSON body may hold in all (10,000 by default). */
  maxBodyEntries?: number;
  errorMappers?: ErrorMapper[];
  /** Mounts the unit's own routes. */
  routes: (app: Express) => void;
}

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** A body that is there but not JSON is refused (415, what clients and proxies expect), not taken as empty. */
export const requireJsonBody: RequestHandler = (req, _res, next) => {
  const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
  if (
    METHODS_WITH_BODY.has(req.method) &&
    hasBody &&
    !req.is('application/json') &&
    !req.is('application/*+json')
  ) {
    throw new AppError(
      415,
      'unsupported_content_type',
      'The request body must be JSON (Content-Type: application/json)',
    );
  }
  next();
};

/**
 * JSON is UTF-8 unless its charset says otherwise: bytes that are not UTF-8 are not JSON text (400
 * `invalid_json`), rather than read with U+FFFD in place of each bad byte and stored as such.
 */
function refuseInvalidUtf8(_req: unknown, _res: unknown, body: Buffer, encoding: string) {
  if (/^utf-?8$/i.test(encoding) && !isUtf8(body))
    throw Object.assign(new Error('The request body is not valid UTF-8'), { type: 'entity.parse.failed' });
}

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
    express.json({
      limit: options.bodyLimit ?? '256kb',
      type: ['application/json', 'application/*+json'],
      // Any JSON value parses: `null` or `3` is valid JSON of the wrong type, which validation answers
      // with a 422 naming the body, while text that is not JSON at all stays a 400.
      strict: false,
      verify: refuseInvalidUtf8,
    }),
  );
  app.use(checkBodyLimits(options.maxBodyEntries));
  app.use(identityMiddleware(options.identityKey, options.unit));
  options.routes(app);
  app.use(notFoundHandler);
  app.use(errorHandler(options.logger, options.errorMappers));
  return app;
}
