import http from 'node:http';
import https from 'node:https';
import { createGuardedAgents, parseOutboundUrl, type Resolver } from '@pp/outbound';

/** What a receiver answered to one attempt, or why there was no answer. */
export interface EndpointAnswer {
  status?: number;
  retryAfter?: string;
  /** The first bytes of the answer's body (as text). */
  excerpt?: string;
  error?: string;
  latencyMs: number;
}

export interface EndpointClient {
  post(url: string, body: string, headers: Record<string, string>): Promise<EndpointAnswer>;
}

const EXCERPT_BYTES = 1024;
/** Past this much of an answer, the connection is dropped rather than read to the end. */
const READ_AT_MOST = 64 * 1024;

const describe = (err: unknown): string => {
  const e = err as { code?: string; message?: string };
  return [e.code, e.message].filter(Boolean).join(': ').slice(0, 500);
};

/**
 * Webhook receivers, called through the outbound guard's agents: each connection to a checked address
 * (scheme checked on every call), kept alive between attempts, no redirect followed (node's http
 * follows none), the whole attempt within `timeoutMs`, the start of the answer kept. Plain node:http
 * rather than axios: this is the unit's hot path, and axios cost a third of its CPU per delivery.
 */
export function createEndpointClient(options: {
  allowPrivate: boolean;
  timeoutMs: number;
  resolve?: Resolver;
}): EndpointClient {
  const agents = createGuardedAgents({ allowPrivate: options.allowPrivate, resolve: options.resolve });
  return {
    post(url, body, headers) {
      const started = performance.now();
      const latencyMs = () => Math.round(performance.now() - started);
      return new Promise<EndpointAnswer>((resolve) => {
        let target: URL;
        try {
          target = parseOutboundUrl(url, options.allowPrivate);
        } catch (err) {
          resolve({ error: describe(err), latencyMs: 0 });
          return;
        }
        let settled = false;
        const finish = (answer: Omit<EndpointAnswer, 'latencyMs'>) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ ...answer, latencyMs: latencyMs() });
        };
        const secure = target.protocol === 'https:';
        const req = (secure ? https : http).request(
          target,
          {
            method: 'POST',
            agent: secure ? agents.httpsAgent : agents.httpAgent,
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              'user-agent': 'planning-poker-webhooks/1',
              ...headers,
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            let size = 0;
            const answer = () => ({
              status: res.statusCode,
              retryAfter: res.headers['retry-after'],
              excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'),
            });
            res.on('data', (chunk: Buffer) => {
              if (size < EXCERPT_BYTES) chunks.push(chunk);
              size += chunk.length;
              if (size > READ_AT_MOST) {
                finish(answer());
                res.destroy();
              }
            });
            res.on('end', () => finish(answer()));
            res.on('error', (err) => finish({ ...answer(), error: describe(err) }));
          },
        );
        // The limit holds for the whole attempt, the answer's body included: a receiver dripping bytes is cut off.
        const timer = setTimeout(() => {
          finish({ error: `timed out after ${options.timeoutMs} ms` });
          req.destroy();
        }, options.timeoutMs);
        req.on('error', (err) => finish({ error: describe(err) }));
        req.end(body);
      });
    },
  };
}
