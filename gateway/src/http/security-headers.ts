import cors from 'cors';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * Security headers for a JSON API (OWASP REST cheat sheet): a deny-all CSP, no framing, no sniffing,
 * HSTS, no referrer. The browser-document headers helmet adds by default only bloat every response;
 * the HTML docs page gets helmet's full defaults instead.
 */
export const apiSecurityHeaders: RequestHandler = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  },
  frameguard: { action: 'deny' },
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
});

export const docsSecurityHeaders: RequestHandler = helmet();

const EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'WWW-Authenticate',
  'Location',
];

/** CORS from the configured origins; never `*` with credentials (the config refuses it). Only cross-origin requests pay for it. */
export function corsHeaders(origins: string[], credentials: boolean): RequestHandler {
  const wildcard = origins.includes('*');
  const handler = cors({
    origin: wildcard ? '*' : origins,
    credentials,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
  return (req, res, next) => {
    if (req.headers.origin !== undefined) return handler(req, res, next);
    // The answer differs by Origin when only some origins are allowed: shared caches must know.
    if (!wildcard) res.setHeader('Vary', 'Origin');
    next();
  };
}
