import type { RequestHandler } from 'express';
import { AppError, NotFoundError } from '@pp/http';
import type { RouteEntry } from '../routes.ts';
import { createRouteMatcher } from './route-matcher.ts';

/** Finds the route-table entry of the request (in res.locals) or answers 404 / 405 with the envelope. */
export function matchRoute(table: readonly RouteEntry[]): RequestHandler {
  const match = createRouteMatcher(table);
  return (req, res, next) => {
    const found = match(req.method, req.path);
    if (found.kind === 'not_found')
      throw new NotFoundError(`No route for ${req.method} ${req.path}`, 'route_not_found');
    if (found.kind === 'method_not_allowed') {
      res.setHeader('Allow', found.allowed.join(', '));
      throw new AppError(405, 'method_not_allowed', `${req.method} is not allowed on ${req.path}`);
    }
    res.locals.route = found.route;
    res.locals.params = found.params;
    next();
  };
}

export const bodyTooLargeMessage = (maxBytes: number) =>
  `The request body is too large (at most ${maxBytes} bytes)`;

/**
 * Bodies stream to the unit, so their size is checked up front from Content-Length (one without it is
 * counted as it streams, by the proxy).
 */
export function bodyLimit(maxBytes: number): RequestHandler {
  return (req, res, next) => {
    const length = Number(req.get('content-length') ?? 0);
    if (length > maxBytes) {
      res.setHeader('Connection', 'close');
      throw new AppError(413, 'payload_too_large', bodyTooLargeMessage(maxBytes));
    }
    next();
  };
}
