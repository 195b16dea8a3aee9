import type { RequestHandler } from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
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
  return rateLimit({
    windowMs: RATE_LIMIT_WINDOW_MS,
    limit: options.limitPerMinute,
    legacyHeaders: true,
    standardHeaders: 'draft-8',
    identifier: 'ip',
    ...(store ? { store } : {}),
    // X-Forwarded-For is deliberately ignored unless TRUST_PROXY says otherwise; no warnings for it.
    validate: { xForwardedForHeader: false, trustProxy: false },
    handler: (_req, res) => {
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
}
