import { requireUser } from '@pp/http';
import type { Request } from 'express';
import type { IntegrationsContext } from '../use-cases/shared/context.ts';

export interface RouteDeps {
  /** The use-case context of the current request. */
  context: () => IntegrationsContext;
}

/** The signed-in caller's id (401 without one). */
export const userId = (req: Request) => requireUser(req).sub;
