import axios, { type AxiosInstance, type AxiosRequestConfig, type AxiosResponse } from 'axios';
import type CircuitBreaker from 'opossum';
import {
  contextHeaders,
  createResilience,
  IDEMPOTENT_METHODS,
  type ResilienceOptions,
} from './resilience.ts';

export interface ResilientClientOptions extends ResilienceOptions {
  baseURL: string;
  timeoutMs?: number;
  maxResponseBytes?: number;
  headers?: () => Record<string, string>;
}

export interface ResilientClient {
  request<T = unknown>(config: AxiosRequestConfig & { idempotent?: boolean }): Promise<AxiosResponse<T>>;
  breaker: CircuitBreaker;
  axios: AxiosInstance;
}

/**
 * axios for calls to the world outside the platform (trackers, sign-on providers, language models):
 * a timeout, no redirects, a size limit, bounded retries for idempotent calls, an opossum circuit
 * breaker per target and request-id propagation. Every answer below 500 is returned as is; 5xx,
 * timeouts and network errors become a ServiceUnavailableError once the retries are spent.
 */
export function createResilientClient(options: ResilientClientOptions): ResilientClient {
  const instance = axios.create({
    baseURL: options.baseURL,
    timeout: options.timeoutMs ?? 5_000,
    validateStatus: () => true,
    maxRedirects: 0,
    maxContentLength: options.maxResponseBytes ?? 5 * 1024 * 1024,
    proxy: false,
  });
  const resilience = createResilience(options);

  function request<T>(config: AxiosRequestConfig & { idempotent?: boolean }): Promise<AxiosResponse<T>> {
    const method = (config.method ?? 'GET').toUpperCase();
    const headers = {
      ...options.headers?.(),
      ...contextHeaders(),
      ...(config.headers as Record<string, string> | undefined),
    };
    return resilience.run(
      () => instance.request<T>({ ...config, method, headers }),
      config.idempotent ?? IDEMPOTENT_METHODS.has(method),
    );
  }

  return { request, breaker: resilience.breaker, axios: instance };
}
