import type { Response } from 'express';
import { errorEnvelope } from '@pp/http';
import { BUCKET_NAMES, type BucketName } from './buckets.ts';

/** What a bucket says of itself, worked out once: its limit, its policy header and its refusal. */
export interface BucketTexts {
  name: BucketName;
  limit: number;
  /** The limit as the header's text. */
  limitText: string;
  policy: string;
  refusal: ReturnType<typeof errorEnvelope>;
}

const WHOSE: Record<BucketName, string> = {
  token: 'with one token',
  participant: 'for one participant',
  room: 'to open or join one room from one address',
  ip: 'from one address',
};

export function bucketTexts(options: {
  limitPerMinute: number;
  roomEntryPerMinute: number;
  windowSeconds: number;
}): Record<BucketName, BucketTexts> {
  const textOf = (name: BucketName): BucketTexts => {
    const limit = name === 'room' ? options.roomEntryPerMinute : options.limitPerMinute;
    return {
      name,
      limit,
      limitText: String(limit),
      policy: `"${name}"; q=${limit}; w=${options.windowSeconds}`,
      refusal: errorEnvelope('rate_limited', `Too many requests: at most ${limit} per minute ${WHOSE[name]}`),
    };
  };
  return Object.fromEntries(BUCKET_NAMES.map((name) => [name, textOf(name)])) as Record<
    BucketName,
    BucketTexts
  >;
}

/**
 * The headers the API promises and the IETF draft's, for the bucket that applied:
 * X-RateLimit-Limit/Remaining/Reset (epoch seconds), `RateLimit: "<bucket>"; r=..; t=..` and
 * `RateLimit-Policy: "<bucket>"; q=..; w=60`. Returns the seconds left in the window.
 */
export function setLimitHeaders(res: Response, text: BucketTexts, remaining: number, resetTime: Date) {
  const now = Date.now();
  const resetMs = resetTime.getTime();
  const secondsLeft = Math.max(0, Math.ceil((resetMs - now) / 1000));
  if (res.headersSent) return secondsLeft;
  res.setHeader('X-RateLimit-Limit', text.limitText);
  res.setHeader('X-RateLimit-Remaining', String(remaining));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil(resetMs / 1000)));
  res.setHeader('RateLimit', `"${text.name}"; r=${remaining}; t=${secondsLeft}`);
  res.setHeader('RateLimit-Policy', text.policy);
  return secondsLeft;
}

/** 429 with Retry-After and the bucket's refusal. */
export function refuse(res: Response, text: BucketTexts, secondsLeft: number) {
  res.setHeader('Retry-After', String(Math.max(1, secondsLeft)));
  res.status(429).json(text.refusal);
}
