import type { Request, RequestHandler, Response } from 'express';
import { rateLimit, type RateLimitInfo, type Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { errorEnvelope } from '@pp/http';
import type { Logger } from '@pp/logger';
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

/**
 * Per client IP, per minute (spec 8, decisions 11): X-RateLimit-Limit/Remaining/Reset (epoch seconds)
 * and the IETF RateLimit / RateLimit-Policy headers on every response; 429 with Retry-After and the
 * error envelope. Every request counts once, when it starts (a live stream too, and only then).
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
  const policy = `"ip"; q=${options.limitPerMinute}; w=${RATE_LIMIT_WINDOW_MS / 1000}`;
  const limiter = rateLimit({
    windowMs: RATE_LIMIT_WINDOW_MS,
    limit: options.limitPerMinute,
    legacyHeaders: true,
    // The IETF headers are written below from the same numbers, without the library's per-request hashing.
    standardHeaders: false,
    ...(store ? { store } : {}),
    // Its checks are for misconfigurations found in development; X-Forwarded-For is deliberately ignored unless TRUST_PROXY says so.
    validate: false,
    handler: (req, res) => {
      setDraftHeaders(req, res, policy);
      res
        .status(429)
        .json(
          errorEnvelope(
            'rate_limited',
            `Too many requests: at most ${options.limitPerMinute} per minute from one address`,
          ),
        );
    },
  });
  return (req, res, next) =>
    limiter(req, res, (err?: unknown) => {
      if (err) return next(err);
      setDraftHeaders(req, res, policy);
      next();
    });
}

/** `RateLimit: "ip"; r=<remaining>; t=<seconds to reset>` and `RateLimit-Policy: "ip"; q=<limit>; w=60` (draft-ietf-httpapi-ratelimit-headers). */
function setDraftHeaders(req: Request, res: Response, policy: string): void {
  const info = (req as Request & { rateLimit?: RateLimitInfo }).rateLimit;
  if (!info || res.headersSent) return;
  const reset = info.resetTime
    ? Math.max(0, Math.ceil((info.resetTime.getTime() - Date.now()) / 1000))
    : RATE_LIMIT_WINDOW_MS / 1000;
  res.setHeader('RateLimit', `"ip"; r=${info.remaining}; t=${reset}`);
  res.setHeader('RateLimit-Policy', policy);
}
