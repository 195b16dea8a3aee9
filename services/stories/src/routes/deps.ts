import { requireUser } from '@pp/http';
import type { Request, RequestHandler } from 'express';
import type { Actor, StoriesContext } from '../use-cases/context.ts';

export interface RouteDeps {
  /** The use-case context of the current request. */
  context: () => StoriesContext;
}

/** The signed-in caller (401 without one). */
export const userActor = (req: Request): Actor => ({ kind: 'user', userId: requireUser(req).sub });

/** Authenticated endpoints answer 401 before they look at the request. */
export const authenticated: RequestHandler = (req, _res, next) => {
  requireUser(req);
  next();
};
