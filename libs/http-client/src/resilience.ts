import type CircuitBreaker from 'opossum';
import { currentContext, type Logger } from '@pp/logger';
import { ServiceUnavailableError, counter } from '@pp/http';
import { circuitBreaker } from './breakers.ts';

export interface ResilienceOptions {
  /** Names the target in logs, metrics and the breaker. */
  name: string;
  /** Retries of idempotent calls after a network error or a 502/503/504. */
  retries?: number;
  retryDelayMs?: number;
  breaker?: { errorThresholdPercentage?: number; resetTimeoutMs?: number; volumeThreshold?: number };
  logger: Logger;
  /**
   * How a failed call and an opened circuit are logged: `debug` for a caller that expects failures
   * and reports them itself.
   */
  failureLogLevel?: 'warn' | 'debug';
}

export const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const RETRYABLE_STATUS = new Set([502, 503, 504]);

const outboundErrors = counter('outbound_request_failures_total', 'Failed outbound calls by target', [
  'target',
  'reason',
]);

/** A status the caller should see as "the target is unwell" (it trips the breaker). */
export class UpstreamError extends Error {
  readonly response: { status: number };
  constructor(response: { status: number }) {
    super(`upstream answered ${response.status}`);
    this.response = response;
  }
}

/**
 * What is worth logging of a failed call. Never the error itself: an HTTP client's error carries the
 * request's headers, and with them credentials such as the signed identity.
 */
function describeFailure(err: unknown) {
  const e = err as
    { name?: string; message?: string; code?: string; response?: { status?: number } } | undefined;
  return { name: e?.name, message: e?.message, code: e?.code, status: e?.response?.status };
}

export interface Resilience {
  /**
   * Sends through the breaker, retrying an idempotent call after a network error or a 502/503/504.
   * Every answer below 500 is returned as is; 5xx, timeouts and network errors become a
   * ServiceUnavailableError once the retries are spent (at once while the breaker is open).
   */
  run<R extends { status: number }>(send: () => Promise<R>, idempotent: boolean): Promise<R>;
  breaker: CircuitBreaker;
}

/** Bounded retries and an opossum circuit breaker for one target, whatever carries the calls. */
export function createResilience(options: ResilienceOptions): Resilience {
  const retries = options.retries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 100;
  const attempt = async (send: () => Promise<{ status: number }>) => {
    const response = await send();
    if (RETRYABLE_STATUS.has(response.status)) throw new UpstreamError(response);
    return response;
  };
  // The transport enforces the timeout.
  const breaker: CircuitBreaker = circuitBreaker(attempt, { name: options.name, ...options.breaker });
  const failureLog = options.failureLogLevel ?? 'warn';
  breaker.on('open', () => options.logger[failureLog]({ target: options.name }, 'circuit opened'));
  breaker.on('close', () => options.logger.info({ target: options.name }, 'circuit closed'));

  async function run<R extends { status: number }>(send: () => Promise<R>, idempotent: boolean) {
    let lastError: unknown;
    for (let n = 0; n <= (idempotent ? retries : 0); n++) {
      if (n > 0) await new Promise((r) => setTimeout(r, retryDelayMs * 2 ** (n - 1) * (0.5 + Math.random())));
      try {
        return (await breaker.fire(send)) as R;
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
    options.logger[failureLog]({ target: options.name, reason, err: cause }, 'outbound call failed');
    throw new ServiceUnavailableError(
      `The ${options.name} service is unavailable, try again shortly`,
      `${options.name}_unavailable`,
      cause,
    );
  }

  return { run, breaker };
}

/** The request id and correlation id of the current request, for the next hop. */
export function contextHeaders(): Record<string, string> {
  const { requestId, correlationId } = currentContext();
  const headers: Record<string, string> = {};
  if (requestId) headers['x-request-id'] = requestId;
  if (correlationId) headers['x-correlation-id'] = correlationId;
  return headers;
}
