import { BoundedMap } from '@pp/collections';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '@pp/logger';
import { ipBucket, type Bucket, type BucketName } from './buckets.ts';
import { settle, type Count, type Counts } from './counts.ts';
import { refuse, setLimitHeaders, type BucketTexts } from './limit-headers.ts';

/** Charges a bucket and answers (headers, 429 when over), as the limiter does for every bucket. */
type Decide = (res: Response, next: NextFunction, bucket: Bucket, count: Count, hits: number) => void;

/** The first request for a room this replica does not know to exist, from one address. */
interface Probe {
  key: string;
  code: string;
  address: string;
  done: boolean;
}

/**
 * Opening and joining a room before having a token: the room's allowance from the address, unless
 * the address has spent its own, so that codes cannot be tried faster than the address's limit. A
 * code that does not exist costs the address one hit per 404. So that a burst of lookups of
 * different codes sent all at once cannot pass before their 404s are counted, the first request for
 * a code this replica has not seen answered reserves that hit up front (one per code and address at
 * a time: a room full of people arriving at once reserves one), and gets it back unless the answer is
 * 404. Codes seen answered are remembered (50,000 of them, the most recent).
 */
export function roomEntry(options: {
  counts: Counts;
  texts: Record<BucketName, BucketTexts>;
  decide: Decide;
  logger: Logger;
}) {
  const { counts, texts, decide } = options;
  const known = new BoundedMap<string, true>(50_000);
  const probing = new Set<string>();
  const logged = (err: unknown) => options.logger.warn({ err }, 'rate limit count failed');
  const ignore = () => undefined;

  const end = (probe: Probe, status: number) => {
    if (probe.done) return;
    probe.done = true;
    probing.delete(probe.key);
    // A 404 keeps the reserved hit: the code cost the address.
    if (status === 404) return;
    settle(counts.add(probe.address, -1), ignore, logged);
    if (status >= 200 && status < 300) known.set(probe.code, true);
  };
  // One listener function for every probe (no closure per request); a probe the unit never answered
  // (refused here, the unit down) ends when its response does.
  function closed(this: Response) {
    const probe = this.locals.probe as Probe | undefined;
    if (probe) end(probe, this.statusCode);
  }

  const enter = (req: Request, res: Response, next: NextFunction, room: Bucket, hits: number) => {
    const code = room.code!;
    const address = ipBucket(req);
    const probe: Probe | undefined =
      known.has(code) || probing.has(room.key)
        ? undefined
        : { key: room.key, code, address: address.key, done: false };
    if (probe) {
      probing.add(probe.key);
      res.locals.probe = probe;
      res.on('close', closed);
    }
    const check = (ip: Count, entry: Count) => {
      // A probe's own hit is in the address's count already.
      const spent = probe ? ip.totalHits > texts.ip.limit : ip.totalHits >= texts.ip.limit;
      if (!spent) return decide(res, next, room, entry, hits);
      if (probe) end(probe, 404); // refused: the hit stays, as for any refused request
      res.locals.bucket = address;
      refuse(res, texts.ip, setLimitHeaders(res, texts.ip, 0, ip.resetTime));
    };
    const ip = probe ? counts.add(address.key, 1) : counts.peek(address.key);
    const entry = counts.add(room.key, hits);
    if (ip instanceof Promise || entry instanceof Promise)
      Promise.all([ip, entry]).then(([i, e]) => check(i, e), next);
    else check(ip, entry);
  };

  /** The unit's answer to a room entry: a 404 costs the address (a probe's was reserved). */
  const answered = (status: number, req: Request, res: Response) => {
    const probe = res.locals.probe as Probe | undefined;
    if (probe) return end(probe, status);
    if (status !== 404) return;
    known.delete((res.locals.bucket as Bucket).code!);
    settle(counts.add(ipBucket(req).key, 1), ignore, logged);
  };

  return { enter, answered };
}
