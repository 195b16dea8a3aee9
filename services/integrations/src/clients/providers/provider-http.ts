import { setTimeout as sleep } from 'node:timers/promises';
import type { AxiosInstance, AxiosResponse, Method } from 'axios';
import type { z } from 'zod';
import type { AppError } from '@pp/http';
import { keyedBreakers, retryAfterMs } from '@pp/http-client';
import type { Logger } from '@pp/logger';
import { OutboundRefusedError } from '@pp/outbound';
import {
  ProviderAuthError,
  ProviderNotFoundError,
  ProviderRateLimitedError,
  ProviderRejectedError,
  ProviderUnavailableError,
  fieldError,
} from '../../errors.ts';

export interface ProviderRequest {
  method?: Method;
  /** Absolute URL (the connection's or the configured API root joined with the path). */
  url: string;
  params?: Record<string, string | number | undefined>;
  data?: unknown;
  headers?: Record<string, string>;
  /** A 404 here means this (the default: the configured project). */
  notFound?: string;
  /** Statuses the adapter reads itself (a GraphQL error comes with a 400). */
  pass?: number[];
}

/** How a provider says "slow down" beyond a plain 429 with Retry-After (a GraphQL error, a 403, no header). */
export interface RateLimitRules {
  /** Milliseconds to wait when the answer is a rate limit, undefined when it is not one. */
  waitMs?: (res: AxiosResponse) => number | undefined;
  /** The wait after a 429 that says nothing of when to come back. */
  defaultWaitMs?: number;
}

export interface ProviderHttpOptions {
  provider: string;
  /** The breaker's key: one per provider and connection. */
  connectionId: string;
  auth: () => Promise<Record<string, string>>;
  rateLimit?: RateLimitRules;
}

export interface ProviderKitOptions {
  outbound: AxiosInstance;
  logger: Logger;
  maxRetryWaitMs: number;
}

class UpstreamFailure extends Error {
  readonly status: number;
  constructor(status: number) {
    super(`upstream answered ${status}`);
    this.status = status;
  }
}

/** Seconds or an HTTP date (Retry-After); epoch seconds, epoch milliseconds or ISO-8601 (reset headers). */
export function waitFromHeaders(headers: Record<string, unknown>, now = Date.now()): number | undefined {
  const retryAfter = retryAfterMs(headers['retry-after'], now);
  if (retryAfter !== undefined) return retryAfter;
  const reset = headers['x-ratelimit-reset'] ?? headers['x-ratelimit-requests-reset'];
  if (reset === undefined) return undefined;
  const n = Number(reset);
  const at = Number.isFinite(n) ? (n > 1e11 ? n : n * 1000) : Date.parse(String(reset));
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

const MAX_RATE_LIMIT_RETRIES = 2;

/**
 * The calls of every tracker adapter: through the SSRF-guarded client (no redirects, a time limit, a
 * bounded answer), a circuit breaker per provider and connection (only 5xx, timeouts and network
 * errors trip it), the provider's rate limits honoured (a short wait is waited, a long one answers 503
 * with Retry-After), and every failure in the API's terms.
 */
export function createProviderKit(kit: ProviderKitOptions) {
  const breakers = keyedBreakers({
    action: async (req: ProviderRequest & { headers: Record<string, string> }) => {
      const res = await kit.outbound.request({
        method: req.method ?? 'GET',
        url: req.url,
        params: req.params,
        data: req.data,
        headers: req.headers,
      });
      if (res.status >= 500 && !res.headers['retry-after']) throw new UpstreamFailure(res.status);
      return res;
    },
    breaker: { resetTimeoutMs: 30_000, errorFilter: (err) => err instanceof OutboundRefusedError },
    capacity: 5_000,
    onOpen: (key) => kit.logger.warn({ breaker: key }, 'tracker circuit opened'),
  });

  return function providerHttp(options: ProviderHttpOptions) {
    const breakerKey = `${options.provider}:${options.connectionId}`;
    const rules = options.rateLimit ?? {};

    function rateLimitWait(res: AxiosResponse): number | undefined {
      const special = rules.waitMs?.(res);
      if (special !== undefined) return special;
      if (res.status === 429 || (res.status === 503 && res.headers['retry-after']))
        return waitFromHeaders(res.headers) ?? rules.defaultWaitMs ?? 1_000;
      return undefined;
    }

    async function send(req: ProviderRequest): Promise<AxiosResponse> {
      const headers = { ...(await options.auth()), ...req.headers };
      try {
        return await breakers.fire(breakerKey, { ...req, headers });
      } catch (err) {
        if (err instanceof OutboundRefusedError)
          throw fieldError('settings', `refused address: ${err.message}`);
        throw new ProviderUnavailableError(options.provider, describe(err));
      }
    }

    /** The answer of a 2xx; anything else thrown as an AppError. */
    return async function request<T = unknown>(req: ProviderRequest): Promise<AxiosResponse<T>> {
      for (let attempt = 0; ; attempt++) {
        const res = await send(req);
        const wait = rateLimitWait(res);
        if (wait !== undefined) {
          if (attempt < MAX_RATE_LIMIT_RETRIES && wait <= kit.maxRetryWaitMs) {
            await sleep(wait);
            continue;
          }
          throw new ProviderRateLimitedError(options.provider, wait / 1000);
        }
        if ((res.status >= 200 && res.status < 300) || req.pass?.includes(res.status))
          return res as AxiosResponse<T>;
        throw statusError(options.provider, res, req.notFound);
      }
    };
  };
}

export type ProviderHttp = ReturnType<ReturnType<typeof createProviderKit>>;

function describe(err: unknown) {
  const e = err as { name?: string; message?: string; code?: string; status?: number };
  return { name: e?.name, message: e?.message, code: e?.code, status: e?.status };
}

function statusError(provider: string, res: AxiosResponse, notFound?: string): AppError {
  if (res.status === 401 || res.status === 403) return new ProviderAuthError(provider);
  if (res.status === 404 || res.status === 410) return new ProviderNotFoundError(provider, notFound);
  if (res.status >= 400 && res.status < 500) return new ProviderRejectedError(provider, `HTTP ${res.status}`);
  return new ProviderUnavailableError(provider, { status: res.status });
}

/**
 * A tracker's answer, read through the schema of the fields the adapter uses (any others are let
 * through unread). An answer of another shape (the wrong kind of value, a required field missing or
 * of the wrong type, text instead of JSON) is a tracker not answering as expected: 503
 * provider_unavailable, as a 5xx is. The schemas refuse an answer whole rather than leave out the
 * items they cannot read: a preview or an import that silently dropped issues would mislead, and
 * every tracker sends each item with its id. Only a text field that is absent or null reads as empty.
 * Azure DevOps answers a bad token with 203 and its sign-in page: that alone says the credentials
 * were refused.
 */
export function jsonOf<S extends z.ZodType>(provider: string, res: AxiosResponse, schema: S): z.output<S> {
  if (res.status === 203) throw new ProviderAuthError(provider);
  const type = String(res.headers['content-type'] ?? '');
  if (type && !type.includes('json'))
    throw new ProviderUnavailableError(provider, { status: res.status, contentType: type.slice(0, 100) });
  return valueAs(provider, res.data, schema);
}

/** A value of a tracker's answer (its JSON, or a part such as GraphQL's `data`) read through its schema. */
export function valueAs<S extends z.ZodType>(provider: string, value: unknown, schema: S): z.output<S> {
  let parsed: z.ZodSafeParseResult<z.output<S>>;
  try {
    parsed = schema.safeParse(value);
  } catch (err) {
    // an answer nested deeper than the schema can walk (RangeError) is no answer of a tracker either
    throw new ProviderUnavailableError(provider, describe(err));
  }
  if (!parsed.success)
    throw new ProviderUnavailableError(provider, {
      // where the answer differs, never its values (they may hold the tracker's data)
      issues: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(answer)'}: ${i.message}`),
    });
  return parsed.data;
}
