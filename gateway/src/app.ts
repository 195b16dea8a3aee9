import express, { type Express, type Request, type RequestHandler } from 'express';
import {
  edgeRequestContext,
  errorHandler,
  healthRouter,
  notFoundHandler,
  type ReadinessCheck,
} from '@pp/http';
import { createServiceClient } from '@pp/http-client';
import type { Logger } from '@pp/logger';
import { authenticate } from './auth/authenticate.ts';
import type { TokenCache } from './auth/token-cache.ts';
import { createTokenVerifier, type TokenVerifier } from './auth/token-verifier.ts';
import { upstreamUrls, type Config } from './config.ts';
import { sharedReadiness, unitReadiness } from './health/readiness.ts';
import { compose } from './http/compose.ts';
import { readOnly } from './http/read-only.ts';
import { requestMetrics } from './http/request-metrics.ts';
import { apiSecurityHeaders, corsHeaders, docsSecurityHeaders } from './http/security-headers.ts';
import { bodyLimit, matchRoute } from './http/route-dispatch.ts';
import { docsRoutes } from './openapi/docs.routes.ts';
import { unitDocuments, type UnitDocuments } from './openapi/unit-documents.ts';
import { forwardToUnits } from './proxy/upstreams.ts';
import { createRateLimiter, type RedisClient } from './rate-limit/rate-limiter.ts';
import { costOfToolCalls } from './rate-limit/tool-calls.ts';
import { routeTable } from './routes.ts';
import { welcomeRouter } from './welcome.ts';
import { webAppRouter } from './web/web-app.ts';

export interface GatewayDeps {
  config: Config;
  logger: Logger;
  tokenCache: TokenCache;
  /** Shared rate-limit counts across replicas. */
  redis?: RedisClient;
  /** Defaults to asking the identity service (with the cache). */
  verifier?: TokenVerifier;
  /** The gateway's own dependencies for /readyz (NATS, Redis); the units are always checked. */
  readiness?: Record<string, ReadinessCheck>;
  isShuttingDown?: () => boolean;
  /**
   * The units' descriptions of their paths, for /openapi.json (`apiDocuments`): they are asked again
   * in the background, so whoever makes them stops them when the gateway stops.
   */
  documents: UnitDocuments;
}

/** The API's document for a gateway of this configuration, heard from its units (stop it with the gateway). */
export function apiDocuments(
  config: Config,
  logger: Logger,
  options: { retryMs?: number } = {},
): UnitDocuments {
  return unitDocuments({
    table: routeTable,
    urls: upstreamUrls(config),
    signingKey: config.INTERNAL_SIGNING_KEY,
    logger,
    retryMs: options.retryMs,
  });
}

/**
 * The gateway's own endpoints (the welcome at `/` included) and the web room's pages and files; every
 * other request skips their routers. Its metrics are not among them: they have a port of their own.
 */
const LOCAL_PATHS = /^\/($|(healthz|readyz|openapi\.json|docs)(\/|$)|room\/[^/]+$|assets\/)/;

/**
 * Reading the gateway's own endpoints (probes, the docs and their assets) is never counted or
 * limited: an orchestrator's probes must keep answering while one address floods the API, and polling
 * readiness or opening the docs must not spend a client's API budget. They read no body and answer
 * locally, under the server's timeouts (readiness from a state shared by all hits, see readiness.ts).
 */
const uncounted = (req: Request) =>
  (req.method === 'GET' || req.method === 'HEAD') && LOCAL_PATHS.test(req.path);

/** The gateway's own endpoints are only read: another method on one of them is 405. */
const OWN_READ_ONLY_PATHS = ['/', '/healthz', '/readyz', '/openapi.json', '/docs'];

/** The methods of the route table, HEAD with GET (answered as it): all a CORS preflight offers. */
const ROUTED_METHODS = [
  ...new Set(routeTable.flatMap((r) => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method]))),
];

/**
 * The gateway's own paths to their routers, every other path (and a local one no router answers)
 * to the API.
 */
function localOr(api: RequestHandler, ...routers: RequestHandler[]): RequestHandler {
  const local = express.Router();
  for (const r of routers) local.use(r);
  return (req, res, next) =>
    LOCAL_PATHS.test(req.path)
      ? local(req, res, (err?: unknown) => (err ? next(err) : api(req, res, next)))
      : api(req, res, next);
}

/** The public entry point: ids, security headers, CORS, routing, authentication, rate limit, proxying. */
export function createApp(deps: GatewayDeps): Express {
  const { config, logger } = deps;
  const urls = upstreamUrls(config);
  const verifier =
    deps.verifier ??
    createTokenVerifier(
      createServiceClient({
        target: 'identity',
        baseURL: urls.identity,
        caller: 'gateway',
        signingKey: config.INTERNAL_SIGNING_KEY,
        logger,
        timeoutMs: config.INTROSPECTION_TIMEOUT_MS,
      }),
      deps.tokenCache,
    );
  const origins = config.CORS_ORIGINS.split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('query parser', 'simple');
  const limiter = createRateLimiter({
    limitPerMinute: config.RATE_LIMIT_PER_MINUTE,
    roomEntryPerMinute: config.RATE_LIMIT_ROOM_ENTRY_PER_MINUTE,
    table: routeTable,
    signingKey: config.INTERNAL_SIGNING_KEY,
    logger,
    redis: deps.redis,
    redisPrefix: config.RATE_LIMIT_REDIS_PREFIX,
    uncounted,
  });
  // The API: the route table decides, the token is checked, the bucket it picks is charged (a known
  // token costs no call to identity: the cache answers), the unit answers.
  const api = compose(
    matchRoute(routeTable),
    bodyLimit(config.BODY_LIMIT),
    authenticate({
      verifier,
      signingKey: config.INTERNAL_SIGNING_KEY,
      logger,
      beforeIntrospection: limiter.beforeIntrospection,
    }),
    costOfToolCalls(config.BODY_LIMIT),
    limiter.limit,
    forwardToUnits({
      urls,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      logger,
      tokenCache: deps.tokenCache,
      streamsPerAddress: config.LIVE_STREAMS_PER_ADDRESS,
      maxBodyBytes: config.BODY_LIMIT,
      onAnswer: limiter.answered,
    }),
  );
  // One express layer for every request (the router's walk through layers is a cost on the hot
  // path): the edge, the gateway's own endpoints included, then its own paths or the API.
  app.use(
    compose(
      edgeRequestContext,
      requestMetrics,
      (req, res, next) =>
        (req.path.startsWith('/docs') ? docsSecurityHeaders : apiSecurityHeaders)(req, res, next),
      corsHeaders(origins, config.CORS_CREDENTIALS, ROUTED_METHODS),
      localOr(
        api,
        healthRouter(
          sharedReadiness({ ...unitReadiness(urls, config.READINESS_TIMEOUT_MS), ...deps.readiness }),
          deps.isShuttingDown,
        ),
        webAppRouter(config.WEB_DIR, logger),
        welcomeRouter(),
        docsRoutes(deps.documents),
        express.Router().all(OWN_READ_ONLY_PATHS, readOnly),
      ),
    ),
  );
  app.use(notFoundHandler);
  // A request refused before its bucket was known (no such route, a bad token) counts against its address.
  app.use(limiter.chargeRefused);
  app.use(errorHandler(logger));
  return app;
}
