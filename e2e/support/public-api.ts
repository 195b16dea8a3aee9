/**
 * The end-to-end tests' client of the public API through the gateway: the JSON client of
 * @pp/testing, with every path checked against the paths of the typed client (libs/api-client) for
 * its method. A test that calls a path the API does not describe (`/sessions/${code}/votes`), or
 * with a method the path does not take, fails the typecheck; a parameter's place takes any text, so
 * the check reads the path's fixed words, not the parameters' values. `raw` calls any path, for tests
 * of what the gateway refuses and for sweeps over the route table. Bodies stay open: tests send what
 * a client could send, wrong bodies included.
 */
import type { paths } from '@pp/api-client';
import { api, type CallOptions, type TestResponse } from '@pp/testing';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** A documented path with its parameters filled: `/sessions/{code}/vote` is `/sessions/${string}/vote`. */
type Filled<P extends string> = P extends `${infer Head}{${string}}${infer Tail}`
  ? `${Head}${string}${Filled<Tail>}`
  : P;

/** The documented paths that take this method, filled, with or without a query string. */
type PathFor<M extends Method> = {
  [P in keyof paths]: paths[P] extends Record<M, object> ? Filled<P> | `${Filled<P>}?${string}` : never;
}[keyof paths];

type Call<M extends Method> = (path: PathFor<M>, options?: CallOptions) => Promise<TestResponse>;

export interface PublicApi {
  get: Call<'get'>;
  post: Call<'post'>;
  patch: Call<'patch'>;
  put: Call<'put'>;
  delete: Call<'delete'>;
  /** Any path and method, unchecked: for what the API does not describe (a 404, a method it refuses). */
  raw: ReturnType<typeof api>;
}

export function publicApi(baseUrl: string): PublicApi {
  const raw = api(baseUrl);
  return { get: raw.get, post: raw.post, patch: raw.patch, put: raw.put, delete: raw.delete, raw };
}
