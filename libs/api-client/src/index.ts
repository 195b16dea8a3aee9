/**
 * The public API's typed client: openapi-fetch over the paths, operations and schemas generated from
 * the units' path descriptions (schema.ts, written by `npm run generate:client`). A path, a parameter
 * or a body the API does not describe is a type error, and each answer has the type of its schema.
 */
import createClient, { defaultPathSerializer, type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema.ts';

export type { components, operations, paths } from './schema.ts';

/** The API's named schemas: `Schemas['Session']`, `Schemas['VoteStats']`... */
export type Schemas = components['schemas'];

/** A path of the API, as its document writes it (`/sessions/{code}/vote`). */
export type ApiPath = keyof paths;

export type ApiClient = Client<paths>;

/** The JSON of an operation's success answer (its 200, or its 201): `Answer<'/auth/me', 'get'>`. */
export type Answer<P extends ApiPath, M extends keyof paths[P]> = paths[P][M] extends {
  responses: infer R;
}
  ? R extends { 200: { content: { 'application/json': infer A } } }
    ? A
    : R extends { 201: { content: { 'application/json': infer A } } }
      ? A
      : never
  : never;

/**
 * A client of the API at `baseUrl` (the gateway's address, or '' for the page's own origin).
 * `options` are openapi-fetch's: headers sent on every call, a `fetch` of one's own (to sign a call,
 * or to pass it through another transport), RequestInit fields such as `cache`.
 */
export function createApiClient(baseUrl: string, options: Omit<ClientOptions, 'baseUrl'> = {}): ApiClient {
  return createClient<paths>({ ...options, baseUrl });
}

/**
 * A path of the API with its parameters filled in (encoded as the client encodes them), for what is
 * not a JSON call: a live stream's URL, a link. `pathOf('/sessions/{code}/events', { code })`.
 */
export function pathOf(path: ApiPath, params: Record<string, string>): string {
  return defaultPathSerializer(path, params);
}
