import type { SessionsContext } from '../use-cases/shared/context.ts';

export interface RouteDeps {
  /** The use-case context of the current request. */
  context: () => SessionsContext;
}
