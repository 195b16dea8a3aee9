import { requireUser } from '@pp/http';
import type { Request } from 'express';
import type { Actor, StoriesContext } from '../use-cases/shared/context.ts';

export interface RouteDeps {
  /** The use-case context of the current request. */
  context: () => StoriesContext;
}

/** The signed-in caller (401 without one). */
export const userActor = (req: Request): Actor => ({ kind: 'user', userId: requireUser(req).sub });
