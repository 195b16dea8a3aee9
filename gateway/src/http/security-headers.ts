import cors from 'cors';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * Security headers for a JSON API (OWASP REST cheat sheet): a deny-all CSP, no framing, no sniffing,
 * HSTS, no referrer; the browser-document headers helmet adds by default only bloat every response.
 * The same five on every answer, so they are set from a fixed list (helmet would run a middleware
 * per header on every request of the hot path); the HTML docs page gets helmet's full defaults.
 */
const API_SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Content-Security-Policy', "default-src 'none';frame-ancestors 'none'"],
  ['Referrer-Policy', 'no-referrer'],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
];

export const apiSecurityHeaders: RequestHandler = (_req, res, next) => {
  for (const [name, value] of API_SECURITY_HEADERS) res.setHeader(name, value);
  next();
};

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

/**
 * CORS from the configured origins; never `*` with credentials (the config refuses it). A preflight offers
 * the given methods (those the API routes). Only cross-origin requests pay for it.
 */
export function corsHeaders(
  origins: string[],
  credentials: boolean,
  methods: readonly string[],
): RequestHandler {
  const wildcard = origins.includes('*');
  const handler = cors({
    origin: wildcard ? '*' : origins,
    credentials,
    methods: [...methods],
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
