import type { ServiceName } from '@pp/config';
import { generatedRoutes } from './routes.generated.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * `public`: no token needed (one is used when valid). `token`: a valid bearer token or 401.
 * `token-or-participant`: a valid bearer token, or else an `X-Participant-Token` the unit checks.
 */
export type Access = 'public' | 'token' | 'token-or-participant';

export interface RouteEntry {
  method: HttpMethod;
  /** OpenAPI-style template: `/sessions/{code}`. */
  path: string;
  unit: ServiceName;
  access: Access;
  summary: string;
  /** The status of success (201 for creation). */
  success?: number;
  /** A long-lived response (Server-Sent Events): no upstream timeout, never buffered. */
  stream?: boolean;
}

/**
 * THE route table: every public path of the API, the unit that serves it and whether it needs a token.
 * Nothing outside it is proxied; `/internal/*` never is. It is derived from the units' descriptions of
 * their paths (routes.generated.ts, written by `npm run generate:client`): a path is declared once, by
 * its unit, and e2e/route-table.test.ts fails when the committed table is not what they derive.
 */
export const routeTable: readonly RouteEntry[] = generatedRoutes;
