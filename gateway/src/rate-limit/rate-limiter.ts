import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from '@pp/logger';
import type { RouteEntry } from '../routes.ts';
import { bucketChooser, ipBucket, type Bucket } from './buckets.ts';
import { settle, type Count, type Counts } from './counts.ts';
import { FallbackCounts } from './fallback-counts.ts';
import { LocalCounts } from './local-counts.ts';
import { RedisCounts, type RedisClient } from './redis-counts.ts';
import { bucketTexts, refuse, setLimitHeaders, type BucketTexts } from './limit-headers.ts';
import { roomEntry } from './room-entry.ts';

export type { RedisClient };

export interface RateLimitOptions {
  limitPerMinute: number;
  /** A room's allowance from one address, for opening and joining it before having a token. */
  roomEntryPerMinute: number;
  table: readonly RouteEntry[];
  /** The internal signing key: participant tokens are checked with a key derived from it. */
  signingKey: string;
  logger: Logger;
  /** Shared by every replica when given; otherwise counts live in this process. */
  redis?: RedisClient;
  redisPrefix?: string;
  /** Requests never counted (the gateway's own endpoints). */
  uncounted: (req: Request) => boolean;
}

export interface RateLimiter {
  /** After the route match and the token check: charges the request's bucket `res.locals.cost` hits (1 by default). */
  limit: RequestHandler;
  /** An error middleware: a request refused before it was charged (unknown route, bad token) counts against its address. */
  chargeRefused: ErrorRequestHandler;
  /** A unit's answer: a room entry answered 404 (a code that does not exist) counts against the address too. */
  answered(status: number, req: Request, res: Response): void;
  /** Before a token the gateway does not know is sent to identity: refused when the address is spent. */
  beforeIntrospection(req: Request, res: Response, ask: () => Promise<void>): Promise<void> | void;
}

export const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * Per bucket (see buckets.ts), per minute, headers on every counted response; 429 with Retry-After
 * and the error envelope naming the limit met. Every request counts when it starts (a live stream
 * once, when it opens). With Redis the counts are shared by every replica and, when Redis fails or is
 * slow, each replica goes on counting locally. The middleware is this one rather than
 * express-rate-limit's, which does a dozen things per request the hot path does not need.
 */
export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const counts: Counts = options.redis
    ? new FallbackCounts(
        new RedisCounts(options.redis, {
          prefix: options.redisPrefix ?? 'pp:rl:',
          windowMs: RATE_LIMIT_WINDOW_MS,
        }),
        { windowMs: RATE_LIMIT_WINDOW_MS, timeoutMs: 250, logger: options.logger },
      )
    : new LocalCounts(RATE_LIMIT_WINDOW_MS);
  const bucketOf = bucketChooser(options.table, options.signingKey);
  const texts = bucketTexts({
    limitPerMinute: options.limitPerMinute,
    roomEntryPerMinute: options.roomEntryPerMinute,
    windowSeconds: RATE_LIMIT_WINDOW_MS / 1000,
  });
  const logged = (err: unknown) => options.logger.warn({ err }, 'rate limit count failed');

  /** Headers of the bucket; refuses when its count is over (a batch that does not fit is given back). */
  const decide = (res: Response, next: NextFunction, bucket: Bucket, count: Count, hits: number) => {
    const text: BucketTexts = texts[bucket.name];
    const over = count.totalHits > text.limit;
    const kept = over && hits > 1 ? count.totalHits - hits : count.totalHits;
    const secondsLeft = setLimitHeaders(res, text, Math.max(0, text.limit - kept), count.resetTime);
    if (!over) return next();
    if (hits > 1) settle(counts.add(bucket.key, -hits), () => undefined, logged);
    refuse(res, text, secondsLeft);
  };

  const rooms = roomEntry({ counts, texts, decide, logger: options.logger });

  const limit: RequestHandler = (req, res, next) => {
    const bucket = bucketOf(req, res);
    res.locals.bucket = bucket;
    const hits = (res.locals.cost as number | undefined) ?? 1;
    if (bucket.name === 'room') return rooms.enter(req, res, next, bucket, hits);
    settle(counts.add(bucket.key, hits), (count) => decide(res, next, bucket, count, hits), next);
  };

  const chargeRefused: ErrorRequestHandler = (err, req, res, next) => {
    if (res.locals.bucket !== undefined || res.headersSent || options.uncounted(req)) return next(err);
    const bucket = ipBucket(req);
    res.locals.bucket = bucket;
    settle(
      counts.add(bucket.key, 1),
      (count) => decide(res, () => next(err), bucket, count, 1),
      () => next(err),
    );
  };

  /**
   * A token the gateway does not know costs a call to identity before its bucket can be known: an
   * address that has spent its allowance makes no such call (made-up tokens cannot flood identity).
   * Only looked at, not charged: the request is charged once its bucket is known.
   */
  const beforeIntrospection = (req: Request, res: Response, ask: () => Promise<void>) => {
    const address = ipBucket(req);
    const check = (ip: Count) => {
      if (ip.totalHits < texts.ip.limit) return ask();
      res.locals.bucket = address;
      refuse(res, texts.ip, setLimitHeaders(res, texts.ip, 0, ip.resetTime));
    };
    const ip = counts.peek(address.key);
    return ip instanceof Promise ? ip.then(check) : check(ip);
  };

  const answered = (status: number, req: Request, res: Response) => {
    if ((res.locals.bucket as Bucket | undefined)?.name === 'room') rooms.answered(status, req, res);
  };

  return { limit, chargeRefused, answered, beforeIntrospection };
}
