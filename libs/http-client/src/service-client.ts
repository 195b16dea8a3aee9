import type { Logger } from '@pp/logger';
import { AppError, IDENTITY_HEADER, signIdentity, type Identity } from '@pp/http';
import {
  createInternalTransport,
  type InternalRequest,
  type InternalResponse,
} from './internal-transport.ts';
import { contextHeaders, createResilience, IDEMPOTENT_METHODS } from './resilience.ts';

export interface ServiceClientOptions {
  /** The service called, e.g. 'sessions'. */
  target: string;
  baseURL: string;
  /** The calling unit, e.g. 'stories'. */
  caller: string;
  signingKey: string;
  logger: Logger;
  timeoutMs?: number;
  /** Retries of idempotent calls (default 2). */
  retries?: number;
  breaker?: { volumeThreshold?: number; resetTimeoutMs?: number };
  /** How a failed call is logged (default `warn`). */
  failureLogLevel?: 'warn' | 'debug';
}

export interface ServiceCallOptions extends InternalRequest {
  /**
   * Act for this user (the identity is re-signed, by the calling unit for the target); by default the
   * call is made as the calling service.
   */
  actAs?: Pick<Identity, 'sub' | 'kind' | 'name' | 'email' | 'token_kind'>;
  idempotent?: boolean;
}

export type ServiceResponse<T> = InternalResponse<T>;

/** A signed identity lives 60 s; the service's own is signed again once it is 30 s old. */
const SIGNED_TTL_SECONDS = 60;
const RESIGN_AFTER_MS = 30_000;

/**
 * Internal HTTP between units: every call carries a signed identity, so the receiving service
 * refuses anything not sent by the platform, with a timeout, bounded retries of idempotent calls
 * and a circuit breaker per target. Error envelopes of the target come back as AppErrors (callOk).
 */
export function createServiceClient(options: ServiceClientOptions) {
  const transport = createInternalTransport({
    baseURL: options.baseURL,
    timeoutMs: options.timeoutMs ?? 3_000,
    maxResponseBytes: 5 * 1024 * 1024,
  });
  const resilience = createResilience({
    name: options.target,
    logger: options.logger,
    retries: options.retries,
    breaker: options.breaker,
    failureLogLevel: options.failureLogLevel,
  });

  // Every identity sent names this unit as its signer and the target as the one unit it is for.
  const addressed = { iss: options.caller, aud: options.target };
  // The service's own identity is the same on every call: signed once a while, not per call (the
  // receiving unit then finds the same header text among those it verified lately).
  let own = { header: '', until: 0 };
  const ownIdentity = () => {
    const now = Date.now();
    if (own.until <= now) {
      const header = signIdentity(
        options.signingKey,
        { sub: options.caller, kind: 'service', ...addressed },
        SIGNED_TTL_SECONDS,
        now,
      );
      own = { header, until: now + RESIGN_AFTER_MS };
    }
    return own.header;
  };
  const identityOf = (actAs: ServiceCallOptions['actAs']) =>
    actAs
      ? signIdentity(options.signingKey, {
          sub: actAs.sub,
          kind: actAs.kind,
          name: actAs.name,
          email: actAs.email,
          token_kind: actAs.token_kind,
          ...addressed,
        })
      : ownIdentity();

  function call<T = Record<string, unknown>>(config: ServiceCallOptions): Promise<ServiceResponse<T>> {
    const { actAs, idempotent, ...request } = config;
    const method = (request.method ?? 'GET').toUpperCase();
    const headers = { ...contextHeaders(), ...request.headers, [IDENTITY_HEADER]: identityOf(actAs) };
    return resilience.run(
      () => transport.send<T>({ ...request, method, headers }),
      idempotent ?? IDEMPOTENT_METHODS.has(method),
    );
  }

  /** Like call, but a non-2xx answer is thrown as the AppError the target described. */
  async function callOk<T = Record<string, unknown>>(config: ServiceCallOptions): Promise<T> {
    const response = await call<T>(config);
    if (response.status >= 200 && response.status < 300) return response.data;
    const body = response.data as
      { message?: string; error?: { code?: string }; errors?: Record<string, string[]> } | undefined;
    throw new AppError(
      response.status,
      body?.error?.code ?? 'upstream_error',
      body?.message ?? `${options.target} answered ${response.status}`,
      { errors: body?.errors },
    );
  }

  return { call, callOk, breaker: resilience.breaker, close: transport.close };
}
export type ServiceClient = ReturnType<typeof createServiceClient>;
