/**
 * The fault run's HTTP client: every request has a deadline above the gateway's upstream timeout, so a
 * request the system never answers is seen as hung rather than waited for; each answer is classified
 * the way the ledger counts it.
 */
import http from 'node:http';

export type Outcome =
  /** 2xx: the system promised the change. */
  | 'ok'
  /** 4xx: refused for the request itself (no current story...), promises nothing. */
  | 'rejected'
  /** 5xx or no connection, answered within the deadline: refused fast, may or may not have happened. */
  | 'refused'
  /** No answer within the client's deadline: hung. */
  | 'hung';

export interface Answer {
  outcome: Outcome;
  status: number;
  // The API's JSON answers are read field by field by the traffic.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  startedAt: number;
  endedAt: number;
  /** A 5xx answer carried the error envelope (`success: false`, `error.code`). */
  enveloped: boolean;
}

export const outcomeOf = (status: number): Outcome =>
  status >= 200 && status < 300 ? 'ok' : status >= 400 && status < 500 ? 'rejected' : 'refused';

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export interface RequestOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  timeoutMs: number;
}

const isEnvelope = (body: unknown) =>
  typeof body === 'object' &&
  body !== null &&
  (body as { success?: unknown }).success === false &&
  typeof (body as { error?: { code?: unknown } }).error?.code === 'string';

/** One request to 127.0.0.1; never rejects: a failure is an answer with status 0. */
export function send(method: string, url: string, options: RequestOptions): Promise<Answer> {
  const startedAt = Date.now();
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Outcome, status: number, body: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const enveloped = isEnvelope(body);
      resolve({ outcome, status, body, startedAt, endedAt: Date.now(), enveloped });
    };
    const req = http.request(url, {
      method,
      agent,
      headers: {
        ...options.headers,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
    });
    const timer = setTimeout(() => {
      finish('hung', 0, undefined);
      req.destroy();
    }, options.timeoutMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', () => finish('refused', 0, undefined));
      res.on('end', () => {
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          body = undefined;
        }
        finish(outcomeOf(res.statusCode ?? 0), res.statusCode ?? 0, body);
      });
    });
    req.on('error', () => finish('refused', 0, undefined));
    req.end(payload);
  });
}

export const closeClient = () => agent.destroy();
