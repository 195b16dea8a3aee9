import type { WebhooksContext } from '../use-cases/shared/context.ts';

export interface RouteDeps {
  /** The use-case context of the current request. */
  context: () => WebhooksContext;
}
