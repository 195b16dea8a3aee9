import http from 'node:http';
import type net from 'node:net';
import type { Request, RequestHandler, Response } from 'express';
import { createProxyServer } from 'httpxy';
import { counter, errorEnvelope, keepAliveAgent } from '@pp/http';
import type { Logger } from '@pp/logger';
import { bufferedBodyOf } from '../http/buffered-body.ts';
import { bodyTooLargeMessage } from '../http/route-dispatch.ts';

const TIMED_OUT = Symbol('upstream timed out');
const TOO_LARGE = Symbol('request body over the limit');
const CLIENT_REQUEST = Symbol('client request');
type Marked = http.IncomingMessage & { [TIMED_OUT]?: boolean; [TOO_LARGE]?: boolean };

/** One listener function for every unit's request (no closure per request): marks its client's request timed out. */
function timedOut(this: http.ClientRequest & { [CLIENT_REQUEST]?: Marked }) {
  const req = this[CLIENT_REQUEST];
  if (req) req[TIMED_OUT] = true;
}

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
  // The proxy engine itself (httpxy, what http-proxy-middleware runs on), without the middleware's
  // per-request layer: no path filter, router or path rewrite to apply, and no options object and
  // promises made per request for them. Its hooks are the proxy server's events.
  const proxy = createProxyServer({
    // A URL rather than its text: the proxy would parse the text again for every request.
    target: new URL(options.target),
    agent,
    proxyTimeout: options.timeoutMs > 0 ? options.timeoutMs : undefined,
  });
  proxy.on('proxyReq', (proxyReq, req) => {
    // The caller's token stays at the gateway: the unit gets the signed identity made from it.
    if (req.headers.authorization !== undefined) proxyReq.removeHeader('authorization');
    if (options.timeoutMs > 0) {
      (proxyReq as http.ClientRequest & { [CLIENT_REQUEST]?: Marked })[CLIENT_REQUEST] = req;
      proxyReq.once('timeout', timedOut);
    }
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
  });
  if (options.onResponse) {
    const onResponse = options.onResponse;
    proxy.on('proxyRes', (proxyRes, req, res) => {
      onResponse(proxyRes.statusCode ?? 0, req as Request, res as Response);
    });
  }
  const failed = (err: Error, req: http.IncomingMessage, res: http.ServerResponse | net.Socket) => {
    // What the client is still sending of its body is read off and dropped (the unit will not take
    // it): left paused, its upload would stall and the client would never read the answer.
    req.unpipe();
    req.resume();
    if ((req as Marked)[TOO_LARGE] === true) {
      if (res instanceof http.ServerResponse) fail(res, 413, options.unit, options.maxBodyBytes);
      else res.destroy();
      return;
    }
    const timedOutThere = (req as Marked)[TIMED_OUT] === true;
    upstreamFailures.inc({ unit: options.unit, reason: timedOutThere ? 'timeout' : 'unavailable' });
    options.logger.warn(
      { unit: options.unit, err: { message: err.message, code: (err as { code?: string }).code } },
      'upstream failed',
    );
    if (res instanceof http.ServerResponse) fail(res, timedOutThere ? 504 : 503, options.unit);
    else res.destroy();
  };
  // The unit's connection failing, refused or timed out (with this listener the engine tells no one else).
  proxy.on('error', (err, req, res) => {
    if (req && res) failed(err, req, res);
  });
  return (req, res) => {
    // The promise settles when the response closes; it fails only on an error of the response itself.
    proxy.web(req, res).catch((err: Error) => {
      if (!res.headersSent) failed(err, req, res);
      else res.destroy();
    });
  };
}
