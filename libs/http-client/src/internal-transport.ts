import type http from 'node:http';
import https from 'node:https';
import { keepAliveAgent, keepAliveHttpsAgent, nodeHttp } from '@pp/http';

export interface InternalRequest {
  method?: string;
  /** A path below the unit's base URL (e.g. `/internal/sessions/ABC234`). */
  url: string;
  /** Query parameters; an array is sent as the parameter repeated, undefined and null are left out. */
  params?: Record<string, unknown>;
  /** Sent as JSON. */
  data?: unknown;
  headers?: Record<string, string>;
}

export interface InternalResponse<T> {
  status: number;
  /** The JSON answer; undefined for an empty one. */
  data: T;
  headers: http.IncomingHttpHeaders;
}

export interface InternalTransportOptions {
  baseURL: string;
  timeoutMs: number;
  maxResponseBytes: number;
}

/**
 * JSON over node's own HTTP client with kept-alive connections: the calls between units are many and
 * small, and a general-purpose client's per-request work (config merging, header objects,
 * transformers) costs more CPU than the hop itself. A call that has not answered within the timeout
 * is abandoned; an answer over the size limit is cut off (both reject, like a network error).
 */
const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

/** How a kept-alive connection the other side had closed fails when a request is written on it. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

export function createInternalTransport(options: InternalTransportOptions) {
  const base = new URL(options.baseURL);
  const secure = base.protocol === 'https:';
  // Kept-alive connections, closed by this side when idle (before the unit's server would close them).
  const agent = secure ? keepAliveHttpsAgent() : keepAliveAgent();
  const prefix = base.pathname.replace(/\/$/, '');

  function pathOf(request: InternalRequest) {
    let path = prefix + request.url;
    if (request.params) {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(request.params))
        for (const item of Array.isArray(value) ? value : [value])
          if (item !== undefined && item !== null) query.append(name, String(item));
      const text = query.toString();
      if (text) path += (path.includes('?') ? '&' : '?') + text;
    }
    return path;
  }

  function send<T>(request: InternalRequest): Promise<InternalResponse<T>> {
    const body = request.data === undefined ? undefined : JSON.stringify(request.data);
    const headers: Record<string, string | number> = { accept: 'application/json', ...request.headers };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    const path = pathOf(request);
    const method = request.method ?? 'GET';
    return attempt<T>(path, method, headers, body, agent);
  }

  /**
   * One try on a connection of the pool; when that connection turns out to be one the unit had closed
   * already (it fails before any answer, having sat idle in the pool: the unit restarted, or closed it
   * as idle just as it was taken), the request went unread, and it is sent once more on a new
   * connection. That is not the unit failing, so neither the caller's retries nor its breaker see it.
   */
  function attempt<T>(
    path: string,
    method: string,
    headers: Record<string, string | number>,
    body: string | undefined,
    via: http.Agent | false,
  ): Promise<InternalResponse<T>> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
      };
      const fail = (err: Error) => {
        settle(() => reject(err));
        req.destroy();
      };
      let answered = false;
      const req = (secure ? https : nodeHttp).request(
        {
          protocol: base.protocol,
          hostname: base.hostname,
          port: base.port,
          path,
          method,
          headers,
          agent: via,
        },
        (res) => {
          answered = true;
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > options.maxResponseBytes)
              fail(coded('the answer is too large', 'ERR_RESPONSE_TOO_LARGE'));
            else chunks.push(chunk);
          });
          res.on('end', () => {
            if (settled) return;
            const text = Buffer.concat(chunks).toString('utf8');
            let data: T;
            try {
              data = (text === '' ? undefined : JSON.parse(text)) as T;
            } catch {
              return fail(coded('the answer is not JSON', 'ERR_BAD_RESPONSE'));
            }
            settle(() => resolve({ status: res.statusCode ?? 0, data, headers: res.headers }));
          });
          res.on('error', fail);
        },
      );
      const timer = setTimeout(() => fail(coded('timed out', 'ETIMEDOUT')), options.timeoutMs);
      req.on('error', (err: Error & { code?: string }) => {
        const stale = via !== false && req.reusedSocket && !answered && STALE_CONNECTION.has(err.code ?? '');
        if (stale && !settled) settle(() => resolve(attempt<T>(path, method, headers, body, false)));
        else fail(err);
      });
      req.end(body);
    });
  }

  return { send, close: () => agent.destroy() };
}
