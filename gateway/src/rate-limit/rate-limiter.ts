import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit, type RateLimitInfo, type Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { errorEnvelope } from '@pp/http';
import type { Logger } from '@pp/logger';
import { clientIp } from '../http/client-ip.ts';
import { FallbackStore } from './fallback-store.ts';

/** What the limiter needs of a Redis client (node-redis's `sendCommand`). */
export interface RedisClient {
  sendCommand(args: string[]): Promise<unknown>;
}

export interface RateLimitOptions {
  limitPerMinute: number;
  logger: Logger;
  /** Shared by every replica when given; otherwise counts live in this process. */
  redis?: RedisClient;
  redisPrefix?: string;
}

export const RATE_LIMIT_WINDOW_MS = 60_000;
const WINDOW_SECONDS = RATE_LIMIT_WINDOW_MS / 1000;

/**
 * The headers the API promises and the IETF draft's, from express-rate-limit's count:
 * X-RateLimit-Limit/Remaining/Reset (epoch seconds), `RateLimit: "ip"; r=..; t=..` and
 * `RateLimit-Policy: "ip"; q=..; w=60`. Written here in one go rather than by the library, which
 * hashes the key and rebuilds a Date header on every request.
 */
function setHeaders(req: Request, res: Response, limit: number, policy: string): number {
  const info = (req as Request & { rateLimit?: RateLimitInfo }).rateLimit;
  if (!info || res.headersSent) return WINDOW_SECONDS;
  const resetMs = info.resetTime?.getTime() ?? Date.now() + RATE_LIMIT_WINDOW_MS;
  const secondsLeft = Math.max(0, Math.ceil((resetMs - Date.now()) / 1000));
  res.setHeader('X-RateLimit-Limit', String(limit));
  res.setHeader('X-RateLimit-Remaining', String(info.remaining));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil(resetMs / 1000)));
  res.setHeader('RateLimit', `"ip"; r=${info.remaining}; t=${secondsLeft}`);
  res.setHeader('RateLimit-Policy', policy);
  return secondsLeft;
}

/**
 * Per client IP, per minute, on every response; 429 with Retry-After and the
 * error envelope. Every request counts once, when it starts (a live stream too, and only then).
 * With Redis the count is shared by every replica; when Redis fails or is slow, each replica goes
 * on counting locally.
 */
export function createRateLimiter(options: RateLimitOptions): RequestHandler {
  let store: Store | undefined;
  if (options.redis) {
    const redis = options.redis;
    const shared = new RedisStore({
      prefix: options.redisPrefix ?? 'pp:rl:',
      sendCommand: (...args: string[]) => redis.sendCommand(args) as never,
    });
    store = new FallbackStore(shared, { timeoutMs: 250, logger: options.logger });
  }
  const limit = options.limitPerMinute;
  const policy = `"ip"; q=${limit}; w=${WINDOW_SECONDS}`;
  const limiter = rateLimit({
    windowMs: RATE_LIMIT_WINDOW_MS,
    limit,
    legacyHeaders: false,
    standardHeaders: false,
    ...(store ? { store } : {}),
    // IPv6 clients are counted by /56 network, as the library does by default.
    keyGenerator: (req) => ipKeyGenerator(clientIp(req)),
    // Its checks are for misconfigurations found in development; X-Forwarded-For is deliberately ignored unless TRUST_PROXY says so.
    validate: false,
    handler: (req, res) => {
      res.setHeader('Retry-After', String(Math.max(1, setHeaders(req, res, limit, policy))));
      res
        .status(429)
        .json(
          errorEnvelope('rate_limited', `Too many requests: at most ${limit} per minute from one address`),
        );
    },
  });
  return (req, res, next) =>
    limiter(req, res, (err?: unknown) => {
      if (err) return next(err);
      setHeaders(req, res, limit, policy);
      next();
    });
}
