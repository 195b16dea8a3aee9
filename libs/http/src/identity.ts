import { createHmac, timingSafeEqual } from 'node:crypto';
import type { RequestHandler, Request } from 'express';
import { z } from 'zod';
import { BoundedMap } from '@pp/collections';
import { ForbiddenError, UnauthorizedError } from './errors.ts';

/** The header that carries the verified caller from the gateway (or a calling service) to a service. */
export const IDENTITY_HEADER = 'x-pp-identity';

export const identitySchema = z.object({
  /** user id (a user) or the calling service's name (a service acting on its own). */
  sub: z.string(),
  kind: z.enum(['user', 'service']),
  name: z.string().optional(),
  email: z.string().optional(),
  /** how the user authenticated: an access token, an API token or an MCP token. */
  token_kind: z.enum(['access', 'api', 'mcp']).optional(),
  token_id: z.string().optional(),
  /** The unit that signed it: `gateway` for a client's request, else the calling unit (`stories`...). */
  iss: z.string(),
  /** The one unit it is for: any other refuses it, so a header taken from one unit opens no other. */
  aud: z.string(),
  iat: z.number(),
  exp: z.number(),
});
export type Identity = z.infer<typeof identitySchema>;

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64url');
const mac = (key: string, body: string) => createHmac('sha256', key).update(body).digest();

/**
 * Signs an identity for a short time (it travels one hop and is never stored), naming who signs it
 * (`iss`) and the one unit it is for (`aud`).
 */
export function signIdentity(
  key: string,
  identity: Omit<Identity, 'iat' | 'exp'>,
  ttlSeconds = 60,
  now = Date.now(),
): string {
  const iat = Math.floor(now / 1000);
  const body = b64(JSON.stringify({ ...identity, iat, exp: iat + ttlSeconds }));
  return `${body}.${mac(key, body).toString('base64url')}`;
}

/** Returns the identity, or undefined when the header is forged, tampered with or expired. */
export function verifyIdentity(key: string, header: string, now = Date.now()): Identity | undefined {
  const [body, sig, extra] = header.split('.');
  if (!body || !sig || extra !== undefined) return undefined;
  const expected = mac(key, body);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const parsed = identitySchema.safeParse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
    if (!parsed.success || parsed.data.exp < Math.floor(now / 1000)) return undefined;
    return parsed.data;
  } catch {
    return undefined;
  }
}

declare module 'express-serve-static-core' {
  interface Request {
    identity?: Identity;
  }
}

/**
 * Headers verified lately, by their exact text: the gateway sends the same signed header for a caller
 * for a while, so a repeat costs a lookup and an expiry check rather than an HMAC, a JSON parse and a
 * schema check. The identities are frozen (shared by the requests that carry the same header).
 */
const VERIFIED_KEPT = 10_000;

/**
 * Reads the signed identity header: absent means anonymous, present but not valid is refused, and so
 * is one signed for another unit than `unit` (this one's name) or for none. Only headers for this unit
 * are kept among those verified lately, so a repeat costs no more than before.
 */
export function identityMiddleware(key: string, unit: string): RequestHandler {
  const verified = new BoundedMap<string, Identity>(VERIFIED_KEPT);
  const verify = (header: string) => {
    const now = Date.now();
    const known = verified.get(header);
    if (known) return known.exp >= Math.floor(now / 1000) ? known : undefined;
    const identity = verifyIdentity(key, header, now);
    if (identity?.aud !== unit) return undefined;
    verified.set(header, Object.freeze(identity));
    return identity;
  };
  return (req, _res, next) => {
    const header = req.get(IDENTITY_HEADER);
    if (header === undefined) return next();
    const identity = verify(header);
    if (!identity)
      throw new UnauthorizedError('The identity of this request could not be verified', 'invalid_identity');
    req.identity = identity;
    next();
  };
}

/** The signed-in user of this request, or a 401. */
export function requireUser(req: Request): Identity {
  if (req.identity?.kind !== 'user') throw new UnauthorizedError();
  return req.identity;
}

/** The header a room's participant proves its seat with (the token its join answered). */
export const PARTICIPANT_TOKEN_HEADER = 'x-participant-token';

/**
 * Who runs a room's round: its owner, signed in, or whoever holds the participant token of the
 * room's moderator (the role the owner may hand over). The unit checks the moderator's token against
 * the room; a signed-in caller is taken as the owner to be checked, a token beside it is not read.
 */
export type RoomController =
  { kind: 'owner'; userId: string } | { kind: 'moderator'; participantToken: string };

/** The room controller a request names, or a 401 when it carries neither a user nor a participant token. */
export function requireRoomController(req: Request): RoomController {
  if (req.identity?.kind === 'user') return { kind: 'owner', userId: req.identity.sub };
  const token = req.headers[PARTICIPANT_TOKEN_HEADER];
  if (typeof token === 'string' && token.length > 0) return { kind: 'moderator', participantToken: token };
  throw new UnauthorizedError();
}

/** Round control answers 401 before it looks at the request when it names no one who could run the room. */
export const namesRoomController: RequestHandler = (req, _res, next) => {
  requireRoomController(req);
  next();
};

/** Authenticated endpoints answer 401 before they look at the request. */
export const signedIn: RequestHandler = (req, _res, next) => {
  requireUser(req);
  next();
};

/** Internal endpoints answer only other services of the platform. */
export const requireService: RequestHandler = (req, _res, next) => {
  if (req.identity?.kind !== 'service') throw new ForbiddenError('Internal endpoint', 'internal_only');
  next();
};
