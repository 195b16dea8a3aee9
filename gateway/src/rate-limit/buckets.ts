import type { Request, Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { participantTokenKey, verifyParticipantToken } from '@pp/contracts';
import type { CachedIdentity } from '../auth/token-cache.ts';
import { clientIp } from '../http/client-ip.ts';
import type { RouteEntry } from '../routes.ts';

/**
 * Which allowance a request spends: its bearer token's, its participant token's, a room's from its
 * address (opening and joining a room before having a token), or its address's (everything else).
 */
export type BucketName = 'token' | 'participant' | 'room' | 'ip';
export const BUCKET_NAMES: readonly BucketName[] = ['token', 'participant', 'room', 'ip'];

export interface Bucket {
  name: BucketName;
  /** The bucket's key in the counts: never a secret (token ids, token MACs, codes, addresses). */
  key: string;
  /** A room's code, lower-cased (room buckets). */
  code?: string;
}

/** IPv4 clients by address; IPv6 clients by /56 network (one subscriber's whole range), as express-rate-limit counts them. */
const addressOf = (req: Request) => {
  const ip = clientIp(req);
  return ip.includes(':') ? ipKeyGenerator(ip) : ip;
};

/**
 * The address bucket of a request. A kept-alive connection sends request after request from the same
 * address: its bucket is remembered on the connection (and made anew when the trusted address of a
 * request differs), so the hot path builds no key per request. Buckets are never changed once made.
 */
const LAST_IP_BUCKET = Symbol('address bucket');
type Remembering = { [LAST_IP_BUCKET]?: { ip: string; bucket: Bucket } };
export const ipBucket = (req: Request): Bucket => {
  const ip = clientIp(req);
  const socket = req.socket as typeof req.socket & Remembering;
  const last = socket[LAST_IP_BUCKET];
  if (last !== undefined && last.ip === ip) return last.bucket;
  const bucket: Bucket = { name: 'ip', key: `ip:${ip.includes(':') ? ipKeyGenerator(ip) : ip}` };
  socket[LAST_IP_BUCKET] = { ip, bucket };
  return bucket;
};

/**
 * Opening a room: the public reads under `/sessions/{code}` (whatever the sessions and stories units
 * add there) and joining it. 50 people behind one office address must get in within a minute.
 */
export const opensRoom = (route: RouteEntry) =>
  (route.access === 'public' && route.method === 'GET' && /^\/sessions\/\{code\}(\/|$)/.test(route.path)) ||
  (route.method === 'POST' && route.path === '/sessions/{code}/join');

/**
 * The bucket of a matched, authenticated request (`res.locals.route`, `.params`, `.identity`). A
 * bearer token that proved nothing counts against the address; a participant token counts only when
 * its MAC says the sessions unit minted it for this room (a made-up string buys nothing, and a token
 * minted before tokens had a MAC is no token here).
 */
export function bucketChooser(table: readonly RouteEntry[], signingKey: string) {
  const roomEntries = new Set(table.filter(opensRoom));
  const tokenKey = participantTokenKey(signingKey);
  // A known token's identity is one object for as long as the cache holds it: its bucket is made once.
  const tokenBuckets = new WeakMap<CachedIdentity, Bucket>();
  const tokenBucket = (identity: CachedIdentity): Bucket => {
    let bucket = tokenBuckets.get(identity);
    if (!bucket) {
      bucket = { name: 'token', key: `token:${identity.token_id ?? identity.sub}` };
      tokenBuckets.set(identity, bucket);
    }
    return bucket;
  };
  return (req: Request, res: Response): Bucket => {
    const identity = res.locals.identity as CachedIdentity | undefined;
    if (identity) return tokenBucket(identity);
    if (req.headers.authorization !== undefined) return ipBucket(req);
    const code = (res.locals.params as Record<string, string> | undefined)?.code;
    if (code === undefined) return ipBucket(req);
    const given = req.headers['x-participant-token'];
    const mac = typeof given === 'string' ? verifyParticipantToken(tokenKey, given, code) : undefined;
    if (mac) return { name: 'participant', key: `participant:${mac}` };
    if (roomEntries.has(res.locals.route as RouteEntry)) {
      const room = code.toLowerCase();
      return { name: 'room', key: `room:${room}:${addressOf(req)}`, code: room };
    }
    return ipBucket(req);
  };
}
