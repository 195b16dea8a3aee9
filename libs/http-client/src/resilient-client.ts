import axios, { type AxiosInstance, type AxiosRequestConfig, type AxiosResponse } from 'axios';
import CircuitBreaker from 'opossum';
import { currentContext, type Logger } from '@pp/logger';
import { ServiceUnavailableError, counter } from '@pp/http';

export interface ResilientClientOptions {
  /** Names the target in logs, metrics and the breaker. */
  name: string;
  baseURL: string;
  timeoutMs?: number;
  /** Retries of idempotent calls after a network error or a 502/503/504. */
  retries?: number;
  retryDelayMs?: number;
  breaker?: { errorThresholdPercentage?: number; resetTimeoutMs?: number; volumeThreshold?: number };
  maxResponseBytes?: number;
  logger: Logger;
  headers?: () => Record<string, string>;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const RETRYABLE_STATUS = new Set([502, 503, 504]);

const outboundErrors = counter('outbound_request_failures_total', 'Failed outbound calls by target', [
  'target',
  'reason',
]);

/** A status the caller should see as "the target is unwell" (it trips the breaker). */
class UpstreamError extends Error {
  readonly response: AxiosResponse;
  constructor(response: AxiosResponse) {
    super(`upstream answered ${response.status}`);
    this.response = response;
  }
}

/**
 * What is worth logging of a failed call. Never the axios error itself: its request config carries the
 * headers, and with them the signed identity (a credential for as long as it is valid).
 */
function describeFailure(err: unknown) {
  const e = err as
    { name?: string; message?: string; code?: string; response?: { status?: number } } | undefined;
  return { name: e?.name, message: e?.message, code: e?.code, status: e?.response?.status };
}

export interface ResilientClient {
  request<T = unknown>(config: AxiosRequestConfig & { idempotent?: boolean }): Promise<AxiosResponse<T>>;
  breaker: CircuitBreaker;
  axios: AxiosInstance;
}

/**
 * axios with a timeout, bounded retries for idempotent calls, an opossum circuit breaker per target
 * and request-id propagation. Every answer below 500 is returned as is; 5xx, timeouts and network
 * errors become a ServiceUnavailableError once the retries are spent.
 */
export function createResilientClient(options: ResilientClientOptions): ResilientClient {
  const retries = options.retries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 100;
  const instance = axios.create({
    baseURL: options.baseURL,
    timeout: options.timeoutMs ?? 5_000,
    validateStatus: () => true,
    maxRedirects: 0,
    maxContentLength: options.maxResponseBytes ?? 5 * 1024 * 1024,
    // keep-alive keeps internal hops cheap
    proxy: false,
  });

  const attempt = async (config: AxiosRequestConfig): Promise<AxiosResponse> => {
    const response = await instance.request(config);
    if (RETRYABLE_STATUS.has(response.status)) throw new UpstreamError(response);
    return response;
  };

  const breaker = new CircuitBreaker(attempt, {
    name: options.name,
    timeout: false, // axios enforces the timeout
    errorThresholdPercentage: options.breaker?.errorThresholdPercentage ?? 50,
    resetTimeout: options.breaker?.resetTimeoutMs ?? 5_000,
    volumeThreshold: options.breaker?.volumeThreshold ?? 10,
    rollingCountTimeout: 10_000,
  });
  breaker.on('open', () => options.logger.warn({ target: options.name }, 'circuit opened'));
  breaker.on('close', () => options.logger.info({ target: options.name }, 'circuit closed'));

  async function request<T>(
    config: AxiosRequestConfig & { idempotent?: boolean },
  ): Promise<AxiosResponse<T>> {
    const method = (config.method ?? 'GET').toUpperCase();
    const idempotent = config.idempotent ?? IDEMPOTENT.has(method);
    const { requestId, correlationId } = currentContext();
    const headers = {
      ...options.headers?.(),
      ...(requestId ? { 'x-request-id': requestId } : {}),
      ...(correlationId ? { 'x-correlation-id': correlationId } : {}),
      ...(config.headers as Record<string, string> | undefined),
    };
    let lastError: unknown;
    for (let n = 0; n <= (idempotent ? retries : 0); n++) {
      if (n > 0) await new Promise((r) => setTimeout(r, retryDelayMs * 2 ** (n - 1) * (0.5 + Math.random())));
      try {
        return (await breaker.fire({ ...config, method, headers })) as AxiosResponse<T>;
      } catch (err) {
        lastError = err;
        if (breaker.opened) break;
      }
    }
    const reason = breaker.opened
      ? 'circuit_open'
      : lastError instanceof UpstreamError
        ? 'upstream_status'
        : 'network';
    outboundErrors.inc({ target: options.name, reason });
    const cause = describeFailure(lastError);
    options.logger.warn({ target: options.name, reason, err: cause }, 'outbound call failed');
    throw new ServiceUnavailableError(
      `The ${options.name} service is unavailable, try again shortly`,
      `${options.name}_unavailable`,
      cause,
    );
  }

  return { request, breaker, axios: instance };
}
