import axios, { type AxiosInstance } from 'axios';
import { createGuardedAgents } from './agents.ts';
import { OutboundRefusedError, parseOutboundUrl, type OutboundPolicy } from './url-guard.ts';

export interface OutboundClientOptions extends OutboundPolicy {
  /** Longest a whole call may take, headers and body (default 15 s). */
  timeoutMs?: number;
  /** Largest answer read (default 1 MiB); past it the call fails. */
  maxResponseBytes?: number;
  /** Largest body sent (default 1 MiB). */
  maxRequestBytes?: number;
  /** Open connections per host (default unbounded: callers bound their own concurrency). */
  maxSocketsPerHost?: number;
}

/**
 * axios for calls to URLs users supplied (webhook targets, trackers, model endpoints): every connection
 * to a checked address (https only unless private targets are allowed), never through a proxy from the
 * environment, no redirect followed (a 3xx comes back as it is: it could point inward), a time limit on
 * the whole call, a bounded answer. Every status is returned; the caller decides what is success.
 */
export function createOutboundClient(options: OutboundClientOptions): AxiosInstance {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const agents = createGuardedAgents(options, { maxSockets: options.maxSocketsPerHost });
  const instance = axios.create({
    ...agents,
    proxy: false,
    maxRedirects: 0,
    timeout: timeoutMs,
    maxContentLength: options.maxResponseBytes ?? 1024 * 1024,
    maxBodyLength: options.maxRequestBytes ?? 1024 * 1024,
    validateStatus: () => true,
  });
  instance.interceptors.request.use((config) => {
    // The scheme is checked on every call: a URL stored while private targets were allowed may not be used once they are not.
    parseOutboundUrl(axios.getUri(config), options.allowPrivate);
    // axios's own timeout is the socket's idle time: a receiver dripping bytes would never reach it.
    const deadline = AbortSignal.timeout(timeoutMs);
    const given = config.signal as AbortSignal | undefined;
    return { ...config, signal: given ? AbortSignal.any([given, deadline]) : deadline };
  });
  // An address refused at connection time (a name that resolves elsewhere now) comes back as the
  // refusal itself, as one refused before connecting does, not as axios's network error around it.
  instance.interceptors.response.use(undefined, (err: unknown) => Promise.reject(refusalIn(err) ?? err));
  return instance;
}

function refusalIn(err: unknown): OutboundRefusedError | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++)
    if (e instanceof OutboundRefusedError) return e;
  return undefined;
}
