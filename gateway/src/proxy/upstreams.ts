import type { Request, RequestHandler, Response } from 'express';
import type { ServiceName } from '@pp/config';
import type { Logger } from '@pp/logger';
import type { TokenCache } from '../auth/token-cache.ts';
import { clientIp } from '../http/client-ip.ts';
import type { RouteEntry } from '../routes.ts';
import { streamLimit } from './stream-limit.ts';
import { createUpstreamProxy } from './upstream-proxy.ts';

/** Sends a matched, authenticated request to its unit: one proxy per unit, and one without timeout for live streams. */
export function forwardToUnits(options: {
  urls: Record<ServiceName, string>;
  timeoutMs: number;
  logger: Logger;
  tokenCache: TokenCache;
  /** Live streams open at once per client address. */
  streamsPerAddress: number;
  /** The largest request body. */
  maxBodyBytes: number;
  /** Told of each unit's answer before it is sent on (the rate limiter charges a room code that does not exist). */
  onAnswer?: (status: number, req: Request, res: Response) => void;
}): RequestHandler {
  const admitStream = streamLimit(options.streamsPerAddress);
  // One proxy per unit and kind, found by the route entry itself on the hot path.
  const proxies = new Map<string, RequestHandler>();
  const byRoute = {
    api: new Map<RouteEntry, RequestHandler>(),
    stream: new Map<RouteEntry, RequestHandler>(),
  };
  const proxyFor = (route: RouteEntry, stream: boolean) => {
    const mine = stream ? byRoute.stream : byRoute.api;
    const found = mine.get(route);
    if (found) return found;
    const key = `${route.unit}:${stream ? 'stream' : 'api'}`;
    let proxy = proxies.get(key);
    if (!proxy) {
      proxy = createUpstreamProxy({
        unit: route.unit,
        target: options.urls[route.unit],
        timeoutMs: stream ? 0 : options.timeoutMs,
        logger: options.logger,
        maxBodyBytes: options.maxBodyBytes,
        onResponse: (status, req, res) => {
          options.onAnswer?.(status, req, res);
          // The replica that revoked a token forgets it before the client hears back; the others learn it over NATS.
          // A token id is a UUID, which identity finds in any case and the cache knows in lowercase.
          if (
            req.method === 'DELETE' &&
            status === 200 &&
            (res.locals.route as RouteEntry).path === '/auth/tokens/{id}'
          ) {
            options.tokenCache.revoke(String(res.locals.params.id).toLowerCase());
          }
        },
      });
      proxies.set(key, proxy);
    }
    mine.set(route, proxy);
    return proxy;
  };

  return (req, res, next) => {
    const route = res.locals.route as RouteEntry;
    // The unit sees the client address the gateway trusted, not whatever the client claimed.
    req.headers['x-forwarded-for'] = clientIp(req);
    req.headers['x-forwarded-proto'] = req.protocol;
    // Nor the trace a client named: the unit continues the gateway's trace (with tracing on), or none.
    if (req.headers.traceparent !== undefined) delete req.headers.traceparent;
    if (req.headers.tracestate !== undefined) delete req.headers.tracestate;
    // This server has answered the client's `Expect: 100-continue` already. Sent on, the expectation
    // would make the proxy skip its hooks on the unit's request (the token left on it, the streamed
    // body not counted, a timeout not told apart).
    if (req.headers.expect !== undefined) delete req.headers.expect;
    // A HEAD of a stream is answered with its headers alone: a plain request, under the API timeout
    // and without a place among the streams (a unit slow to answer it does not hold one).
    const stream = route.stream === true && req.method !== 'HEAD';
    if (stream) {
      admitStream(req, res);
      req.socket.setTimeout(0);
      res.setHeader('X-Accel-Buffering', 'no');
    }
    return proxyFor(route, stream)(req, res, next);
  };
}
