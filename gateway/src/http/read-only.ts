import type { RequestHandler } from 'express';
import { AppError } from '@pp/http';

/**
 * For a path that is only read (the gateway's own endpoints, a room's page): GET and HEAD go on, any
 * other method is 405 with `Allow: GET, HEAD`, as on an API path that exists with other methods.
 */
export const readOnly: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  res.setHeader('Allow', 'GET, HEAD');
  throw new AppError(405, 'method_not_allowed', `${req.method} is not allowed on ${req.path}`);
};
