import type { RequestHandler } from 'express';
import { requireUser } from '@pp/http';
import type { SessionsContext } from '../use-cases/context.ts';

export interface RouteDeps {
  /** The use-case context of the current request. */
  context: () => SessionsContext;
}

/** Authenticated endpoints answer 401 before they look at the request. */
export const signedIn: RequestHandler = (req, _res, next) => {
  requireUser(req);
  next();
};
