import { BoundedMap } from '@pp/collections';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  IDENTITY_HEADER,
  PARTICIPANT_TOKEN_HEADER,
  ServiceUnavailableError,
  signIdentity,
  UnauthorizedError,
} from '@pp/http';
import type { Logger } from '@pp/logger';
import type { RouteEntry } from '../routes.ts';
import type { CachedIdentity } from './token-cache.ts';
import type { TokenVerifier } from './token-verifier.ts';

/** The bearer token of the request: undefined without an Authorization header, '' when it is not a bearer one. */
function bearerOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : '';
}

/**
 * Replaces whatever identity the client claimed with the one its token proves, signed for the unit.
 * A route that needs a token answers 401 without a valid one; a public route goes on anonymously. A
 * route of round control takes a bearer token as one that needs it, and without one goes on to the
 * unit when the request carries a participant token (the unit checks it), else 401.
 */
export function authenticate(options: {
  verifier: TokenVerifier;
  signingKey: string;
  logger: Logger;
  /**
   * Before a token this gateway does not know is sent to identity: calls `ask` when the request may
   * cost that call (the rate limiter refuses it when its address has spent its allowance).
   */
  beforeIntrospection?: (req: Request, res: Response, ask: () => Promise<void>) => Promise<void> | void;
}): RequestHandler {
  // A signed header lives 60 s; one signed less than 30 s ago is reused rather than signed again per
  // request. Each is signed for the unit of the route (a header taken from one unit opens no other),
  // so they are kept per unit: a map per unit rather than a key built per request.
  const signedByUnit = new Map<string, BoundedMap<string, { value: string; until: number }>>();
  const signedFor = (unit: string) => {
    let signed = signedByUnit.get(unit);
    if (!signed) signedByUnit.set(unit, (signed = new BoundedMap(10_000)));
    return signed;
  };
  const headerFor = (identity: CachedIdentity, unit: string): string => {
    const signed = signedFor(unit);
    const key = identity.token_id ?? identity.sub;
    const now = Date.now();
    const hit = signed.get(key);
    if (hit && hit.until > now) return hit.value;
    const value = signIdentity(options.signingKey, { ...identity, iss: 'gateway', aud: unit }, 60);
    signed.set(key, { value, until: now + 30_000 });
    return value;
  };
  const signIn = (
    req: Request,
    res: Response,
    next: NextFunction,
    identity: CachedIdentity | undefined,
    tokenGiven = true,
  ) => {
    const route = res.locals.route as RouteEntry;
    if (route.access !== 'public' && !identity) {
      if (tokenGiven)
        throw new UnauthorizedError('The bearer token is invalid, expired or revoked', 'invalid_token');
      if (route.access === 'token') throw new UnauthorizedError('A bearer token is required', 'unauthorized');
      if (!req.headers[PARTICIPANT_TOKEN_HEADER])
        throw new UnauthorizedError('A bearer token or an X-Participant-Token is required', 'unauthorized');
    }
    if (identity) {
      req.headers[IDENTITY_HEADER] = headerFor(identity, route.unit);
      res.locals.identity = identity;
    }
    next();
  };
  return (req, res, next) => {
    const route = res.locals.route as RouteEntry;
    // (Deleted only when present: a delete turns the headers object into a slower dictionary.)
    if (req.headers[IDENTITY_HEADER] !== undefined) delete req.headers[IDENTITY_HEADER];
    // Units trust only the signed identity header; the token itself goes no further than the gateway
    // (the proxy leaves the Authorization header out of what it sends on).
    const token = bearerOf(req.headers.authorization);
    if (!token) return signIn(req, res, next, undefined, token !== undefined);
    // A token known here answers at once; only a new one waits for the identity unit.
    const known = options.verifier.known?.(token, req.socket);
    if (known) return signIn(req, res, next, known.identity);
    const ask = () =>
      options.verifier.verify(token).then(
        (identity) => signIn(req, res, next, identity),
        (err: unknown) => {
          if (route.access !== 'public')
            throw new ServiceUnavailableError(
              'Sign-in cannot be checked right now, try again shortly',
              'identity_unavailable',
              err,
            );
          options.logger.warn({ err }, 'token not checked, request goes on anonymously');
          signIn(req, res, next, undefined);
        },
      );
    return options.beforeIntrospection ? options.beforeIntrospection(req, res, ask) : ask();
  };
}
