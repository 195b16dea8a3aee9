import { createApiClient, type ApiClient, type ApiPath } from '@pp/api-client';
import type { Identity } from '@pp/http';
import { createServiceClient, type ServiceClient } from '@pp/http-client';
import type { Logger } from '@pp/logger';
import type { Config } from '../config.ts';
import type { Unit } from '../domain/tools.ts';

/** A unit's answer: the status and the envelope it sent. */
export interface UnitAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** A call of a public endpoint: a path of the API's typed client, its parameters and its body. */
export interface EndpointCall {
  method: 'GET' | 'POST' | 'DELETE';
  path: ApiPath;
  pathParams?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export interface UnitsClient {
  /** Calls a unit's public endpoint as the caller: the unit checks what the caller may do. */
  asCaller(caller: Identity, unit: Unit, call: EndpointCall): Promise<UnitAnswer>;
  /** The code of a session known by its id (the sessions unit's internal lookup), or undefined. */
  sessionCode(id: string): Promise<string | undefined>;
}

interface UnitLink {
  baseUrl: string;
  service: ServiceClient;
  api: ApiClient;
}

/** A URL's path and query below a base URL's path (the service client adds the base again). */
function pathBelow(baseUrl: string, url: string): string {
  const { pathname, search } = new URL(url);
  return pathname.slice(new URL(baseUrl).pathname.replace(/\/$/, '').length) + search;
}

/**
 * The typed client's fetch, sent through the unit's service client instead: signed as the caller
 * (the unit trusts only a signed identity), with its timeout and circuit breaker.
 */
function signedAs(link: UnitLink, caller: Identity) {
  return async (request: Request): Promise<Response> => {
    const text = await request.text();
    const answer = await link.service.call<unknown>({
      method: request.method,
      url: pathBelow(link.baseUrl, request.url),
      data: text ? JSON.parse(text) : undefined,
      actAs: caller,
    });
    const empty = answer.status === 204 || answer.data === undefined;
    return new Response(empty ? null : JSON.stringify(answer.data), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  };
}

/**
 * The units the tools call: the public endpoints by the API's typed client, each unit through one
 * service client with a timeout and a circuit breaker. No retry: one more wait of CALL_TIMEOUT_MS
 * would outlast the gateway's, and the assistant, told the tool failed, can call it again.
 */
export function createUnitsClient(config: Config, logger: Logger): UnitsClient {
  const urls: Record<Unit, string> = {
    sessions: config.SESSIONS_URL,
    stories: config.STORIES_URL,
    ai: config.AI_URL,
    integrations: config.INTEGRATIONS_URL,
  };
  const linkTo = (unit: string, url: string): UnitLink => {
    const baseUrl = url.replace(/\/+$/, '');
    const service = createServiceClient({
      target: unit,
      baseURL: baseUrl,
      caller: 'mcp',
      signingKey: config.INTERNAL_SIGNING_KEY,
      logger,
      timeoutMs: config.CALL_TIMEOUT_MS,
      retries: 0,
    });
    return { baseUrl, service, api: createApiClient(baseUrl) };
  };
  const links = Object.fromEntries(
    Object.entries(urls).map(([unit, url]) => [unit, linkTo(unit, url)]),
  ) as Record<Unit, UnitLink>;

  return {
    async asCaller(caller, unit, call) {
      const link = links[unit];
      // A tool names its endpoint at run time (its spec): the path is one of the API's, checked where the
      // tools are listed; the unit validates the parameters and the body as it does over HTTP.
      const init = {
        params: { path: call.pathParams ?? {}, query: call.query },
        body: call.body,
        fetch: signedAs(link, caller),
      };
      const method = call.method.toLowerCase() as 'get' | 'post' | 'delete';
      const { data, error, response } = await link.api.request(method, call.path as never, init as never);
      const body = (response.ok ? data : error) as unknown;
      return {
        status: response.status,
        body: body && typeof body === 'object' ? (body as Record<string, unknown>) : {},
      };
    },
    async sessionCode(id) {
      // An internal path of the sessions unit (not part of the public API, so not in the typed client).
      const response = await links.sessions.service.call<{ session?: { code?: string } }>({
        url: `/internal/sessions/${encodeURIComponent(id)}`,
      });
      return response.status === 200 ? response.data.session?.code : undefined;
    },
  };
}
