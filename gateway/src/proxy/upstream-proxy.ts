import http from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { createProxyMiddleware, debugProxyErrorsPlugin, proxyEventsPlugin } from 'http-proxy-middleware';
import { counter, errorEnvelope, keepAliveAgent } from '@pp/http';
import type { Logger } from '@pp/logger';
import { bufferedBodyOf } from '../http/buffered-body.ts';
import { bodyTooLargeMessage } from '../http/route-dispatch.ts';

const TIMED_OUT = Symbol('upstream timed out');
const TOO_LARGE = Symbol('request body over the limit');
type Marked = http.IncomingMessage & { [TIMED_OUT]?: boolean; [TOO_LARGE]?: boolean };

const upstreamFailures = counter(
  'gateway_upstream_failures_total',
  'Requests the gateway could not complete upstream',
  ['unit', 'reason'],
);

export interface UpstreamProxyOptions {
  unit: string;
  target: string;
  /** Inactivity limit while waiting for the unit; 0 for live streams. */
  timeoutMs: number;
  logger: Logger;
  /** Called with each upstream response before it is sent on. */
  onResponse?: (status: number, req: Request, res: Response) => void;
  /** The largest request body; one without Content-Length is counted as it streams. */
  maxBodyBytes?: number;
}

function fail(res: http.ServerResponse, status: 413 | 503 | 504, unit: string, maxBodyBytes = 0): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body =
    status === 413
      ? errorEnvelope('payload_too_large', bodyTooLargeMessage(maxBodyBytes))
      : status === 504
        ? errorEnvelope('gateway_timeout', `The ${unit} service did not answer in time`)
        : errorEnvelope('service_unavailable', `The ${unit} service is unavailable, try again shortly`);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    ...(status === 503 ? { 'retry-after': '1' } : {}),
    ...(status === 413 ? { connection: 'close' } : {}),
  });
  res.end(JSON.stringify(body));
}

/**
 * A body sent without Content-Length (chunked) could not be measured up front: it is counted as it
 * streams to the unit, and past the limit the unit's request is cut off (it never gets the whole body)
 * and the client gets 413, as for a body whose Content-Length says it is too large. Once the unit has
 * answered, its answer stands. Called as the body starts to flow, before any of it has.
 */
function limitStreamedBody(req: http.IncomingMessage, proxyReq: http.ClientRequest, maxBytes: number) {
  let seen = 0;
  const count = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen <= maxBytes) return;
    req.off('data', count);
    (req as Marked)[TOO_LARGE] = true;
    proxyReq.destroy();
  };
  req.on('data', count);
  proxyReq.once('response', () => req.off('data', count));
}

/**
 * Streams requests and responses to one unit (no body parsing, no buffering) over kept-alive
 * connections. A unit that refuses the connection answers 503 at once; one that stays silent past
 * the timeout, 504. Neither hangs the client.
 */
export function createUpstreamProxy(options: UpstreamProxyOptions): RequestHandler {
  // Idle connections are closed here before the unit would close them: a request written on a connection
  // the unit is closing fails, and a POST cannot be sent again.
  const agent = keepAliveAgent({ maxSockets: 512, maxFreeSockets: 64 });
  const proxy = createProxyMiddleware({
    // A URL rather than its text: both the middleware and the proxy under it would parse the text
    // again for every request.
    target: new URL(options.target),
    agent,
    proxyTimeout: options.timeoutMs > 0 ? options.timeoutMs : undefined,
    ejectPlugins: true,
    plugins: [debugProxyErrorsPlugin, proxyEventsPlugin],
    on: {
      proxyReq: (proxyReq, req) => {
        // The caller's token stays at the gateway: the unit gets the signed identity made from it.
        if (req.headers.authorization !== undefined) proxyReq.removeHeader('authorization');
        proxyReq.once('timeout', () => {
          (req as Marked)[TIMED_OUT] = true;
        });
        // A body the gateway has read (to count an MCP batch's tool calls) goes as it came; the spent
        // request stream, piped after this hook, only ends the unit's request.
        const buffered = bufferedBodyOf(req);
        if (buffered) {
          proxyReq.removeHeader('transfer-encoding');
          proxyReq.setHeader('content-length', buffered.length);
          proxyReq.write(buffered);
        } else if (
          options.maxBodyBytes !== undefined &&
          req.headers['transfer-encoding'] !== undefined &&
          req.headers['content-length'] === undefined
        )
          limitStreamedBody(req, proxyReq, options.maxBodyBytes);
      },
      proxyRes: (proxyRes, req, res) => {
        options.onResponse?.(proxyRes.statusCode ?? 0, req as Request, res as Response);
      },
      error: (err, req, res) => {
        // What the client is still sending of its body is read off and dropped (the unit will not take
        // it): left paused, its upload would stall and the client would never read the answer.
        req.unpipe();
        req.resume();
        if ((req as Marked)[TOO_LARGE] === true) {
          if (res instanceof http.ServerResponse) fail(res, 413, options.unit, options.maxBodyBytes);
          else res.destroy();
          return;
        }
        const timedOut = (req as Marked)[TIMED_OUT] === true;
        upstreamFailures.inc({ unit: options.unit, reason: timedOut ? 'timeout' : 'unavailable' });
        options.logger.warn(
          { unit: options.unit, err: { message: err.message, code: (err as { code?: string }).code } },
          'upstream failed',
        );
        if (res instanceof http.ServerResponse) fail(res, timedOut ? 504 : 503, options.unit);
        else res.destroy();
      },
    },
  });
  return proxy as unknown as RequestHandler;
}
