import type { Express } from 'express';
import { IDENTITY_HEADER, listen, signIdentity, verifyIdentity, type RunningServer } from '@pp/http';

/** The app in process on a free port of the loopback interface. */
export const startApp = (app: Express): Promise<RunningServer> => listen(app, 0, '127.0.0.1');

export interface TestResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

export interface ApiOptions {
  /**
   * The unit this client calls and the platform key: a signed identity header given is signed again
   * for that unit (as the gateway signs one per unit), so one test helper's header serves every unit
   * of a test. A header that does not verify is sent as it is.
   */
  identityFor?: { unit: string; key: string };
}

function readdressed(header: string, to: { unit: string; key: string }): string {
  const identity = verifyIdentity(to.key, header);
  if (!identity) return header;
  const { iat, exp, ...rest } = identity;
  return signIdentity(to.key, { ...rest, aud: to.unit }, exp - iat);
}

/** A small JSON client for tests: `api(url).post('/sessions', { body, token })`. */
export function api(baseUrl: string | (() => string), apiOptions: ApiOptions = {}) {
  const call = async (method: string, path: string, options: CallOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...options.headers };
    const given = headers[IDENTITY_HEADER];
    if (given && apiOptions.identityFor)
      headers[IDENTITY_HEADER] = readdressed(given, apiOptions.identityFor);
    if (options.body !== undefined) headers['content-type'] ??= 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const base = typeof baseUrl === 'function' ? baseUrl() : baseUrl;
    const res = await fetch(base + path, {
      method,
      headers,
      body:
        options.body === undefined
          ? undefined
          : typeof options.body === 'string'
            ? options.body
            : JSON.stringify(options.body),
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.status, headers: res.headers, body, text };
  };
  return {
    get: (path: string, o?: CallOptions) => call('GET', path, o),
    post: (path: string, o?: CallOptions) => call('POST', path, o),
    patch: (path: string, o?: CallOptions) => call('PATCH', path, o),
    put: (path: string, o?: CallOptions) => call('PUT', path, o),
    delete: (path: string, o?: CallOptions) => call('DELETE', path, o),
  };
}

/** A Set-Cookie line read: its name, value, and attributes by lower-case name (a flag's value is ''). */
export function setCookieOf(line: string) {
  const [pair, ...rest] = line.split(';').map((part) => part.trim());
  const attributes = new Map(
    rest.map((a) => [a.split('=')[0]!.toLowerCase(), a.slice(a.indexOf('=') + 1 || a.length)]),
  );
  return { name: pair!.split('=')[0]!, value: pair!.slice(pair!.indexOf('=') + 1), attributes };
}
