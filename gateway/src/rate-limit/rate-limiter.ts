import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, type IncrementResponse, type Options, type Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { errorEnvelope } from '@pp/http';
import type { Logger } from '@pp/logger';
import { clientIp } from '../http/client-ip.ts';
import { FallbackStore } from './fallback-store.ts';
import { LocalCounts } from './local-counts.ts';

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
 * The headers the API promises and the IETF draft's: X-RateLimit-Limit/Remaining/Reset (epoch
 * seconds), `RateLimit: "ip"; r=..; t=..` and `RateLimit-Policy: "ip"; q=..; w=60`. Returns the
 * seconds left in the window.
 */
function setHeaders(
  res: Response,
  limit: number,
  remaining: number,
  resetTime: Date | undefined,
  policy: string,
) {
  const now = Date.now();
  const resetMs = resetTime?.getTime() ?? now + RATE_LIMIT_WINDOW_MS;
  const secondsLeft = Math.max(0, Math.ceil((resetMs - now) / 1000));
  if (res.headersSent) return secondsLeft;
  res.setHeader('X-RateLimit-Limit', String(limit));
  res.setHeader('X-RateLimit-Remaining', String(remaining));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil(resetMs / 1000)));
  res.setHeader('RateLimit', `"ip"; r=${remaining}; t=${secondsLeft}`);
  res.setHeader('RateLimit-Policy', policy);
  return secondsLeft;
}

/** IPv4 clients by address; IPv6 clients by /56 network (one subscriber's whole range), as express-rate-limit counts them. */
const clientKey = (req: Request) => {
  const ip = clientIp(req);
  return ip.includes(':') ? ipKeyGenerator(ip) : ip;
};

/**
 * Per client IP, per minute, on every response; 429 with Retry-After and the error envelope. Every
 * request counts once, when it starts (a live stream too, and only then). With Redis the counts are
 * shared by every replica (rate-limit-redis's store), and when Redis fails or is slow each replica
 * goes on counting locally; without Redis, the counts of this process answer synchronously. The
 * middleware around the store is this one: express-rate-limit's own does a dozen things per request
 * (option lookups, validations, its own headers) that the gateway's hot path does not need.
 */
export function createRateLimiter(options: RateLimitOptions): RequestHandler {
  const store: Store = options.redis
    ? new FallbackStore(
        new RedisStore({
          prefix: options.redisPrefix ?? 'pp:rl:',
          sendCommand: (...args: string[]) => options.redis!.sendCommand(args) as never,
        }),
        { timeoutMs: 250, logger: options.logger },
      )
    : new LocalCounts();
  void store.init?.({ windowMs: RATE_LIMIT_WINDOW_MS } as Options);
  const limit = options.limitPerMinute;
  const policy = `"ip"; q=${limit}; w=${WINDOW_SECONDS}`;
  const refusal = errorEnvelope(
    'rate_limited',
    `Too many requests: at most ${limit} per minute from one address`,
  );
  return (req, res, next) => {
    const apply = ({ totalHits, resetTime }: IncrementResponse) => {
      const secondsLeft = setHeaders(res, limit, Math.max(0, limit - totalHits), resetTime, policy);
      if (totalHits <= limit) return next();
      res.setHeader('Retry-After', String(Math.max(1, secondsLeft)));
      res.status(429).json(refusal);
    };
    // Local counts answer at once; a shared store's answer is awaited.
    const counted = store.increment(clientKey(req));
    if (counted instanceof Promise) counted.then(apply, next);
    else apply(counted);
  };
}
