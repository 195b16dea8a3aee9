import type { AxiosRequestConfig, AxiosResponse } from 'axios';
import type { Logger } from '@pp/logger';
import { AppError, IDENTITY_HEADER, signIdentity, type Identity } from '@pp/http';
import { createResilientClient, type ResilientClient } from './resilient-client.ts';

export interface ServiceClientOptions {
  /** The service called, e.g. 'sessions'. */
  target: string;
  baseURL: string;
  /** The calling unit, e.g. 'stories'. */
  caller: string;
  signingKey: string;
  logger: Logger;
  timeoutMs?: number;
}

export interface ServiceCallOptions extends AxiosRequestConfig {
  /** Act for this user (the identity is re-signed); by default the call is made as the calling service. */
  actAs?: Identity;
  idempotent?: boolean;
}

/**
 * Internal HTTP between units: every call carries a signed identity, so the receiving service
 * refuses anything not sent by the platform. Error envelopes of the target come back as AppErrors.
 */
export function createServiceClient(options: ServiceClientOptions) {
  const client: ResilientClient = createResilientClient({
    name: options.target,
    baseURL: options.baseURL,
    timeoutMs: options.timeoutMs ?? 3_000,
    logger: options.logger,
  });

  async function call<T = Record<string, unknown>>(config: ServiceCallOptions): Promise<AxiosResponse<T>> {
    const { actAs, ...rest } = config;
    const identity = actAs
      ? {
          sub: actAs.sub,
          kind: actAs.kind,
          name: actAs.name,
          email: actAs.email,
          token_kind: actAs.token_kind,
        }
      : { sub: options.caller, kind: 'service' as const };
    return client.request<T>({
      ...rest,
      headers: {
        ...(rest.headers as Record<string, string>),
        [IDENTITY_HEADER]: signIdentity(options.signingKey, identity),
      },
    });
  }

  /** Like call, but a non-2xx answer is thrown as the AppError the target described. */
  async function callOk<T = Record<string, unknown>>(config: ServiceCallOptions): Promise<T> {
    const response = await call<T>(config);
    if (response.status >= 200 && response.status < 300) return response.data;
    const body = response.data as {
      message?: string;
      error?: { code?: string };
      errors?: Record<string, string[]>;
    };
    throw new AppError(
      response.status,
      body?.error?.code ?? 'upstream_error',
      body?.message ?? `${options.target} answered ${response.status}`,
      {
        errors: body?.errors,
      },
    );
  }

  return { call, callOk, breaker: client.breaker };
}
export type ServiceClient = ReturnType<typeof createServiceClient>;
