import { createHash, randomBytes } from 'node:crypto';
import type { CookieOptions, Request, Response } from 'express';
import { envelope } from './envelope.ts';

/**
 * Binding a redirect flow (OAuth: start, the provider's pages, the callback) to the browser that
 * started it. Start gives the browser a random nonce in a cookie and keeps only its hash with the
 * flow's state; the callback takes the state only with the cookie whose nonce hashes to it. Without
 * this, the callback link of a flow someone started for themselves finishes it in whichever browser
 * opens it.
 */

/** 256 random bits as 43 base64url characters. */
export const createBrowserNonce = (): string => randomBytes(32).toString('base64url');

/** What the state keeps of the nonce: its SHA-256 (256 random bits need no slower hash). */
export const browserHashOf = (nonce: string): string => createHash('sha256').update(nonce).digest('hex');

export interface BrowserCookie {
  name: string;
  /** Where the browser brings it back (the callback): its path only, and Secure when it is https. */
  url: string;
  /** Kept as long as the state, so that it is gone when the state could no longer be used anyway. */
  maxAgeSeconds: number;
}

const optionsOf = (cookie: BrowserCookie): CookieOptions => {
  const url = new URL(cookie.url);
  return {
    httpOnly: true,
    // Lax, so that it comes back on the provider's top-level redirect to the callback.
    sameSite: 'lax',
    secure: url.protocol === 'https:',
    // The path the browser sees: the public URL's, which may sit under a prefix of the gateway.
    path: url.pathname,
  };
};

export const setBrowserCookie = (res: Response, cookie: BrowserCookie, nonce: string): void => {
  res.cookie(cookie.name, nonce, { ...optionsOf(cookie), maxAge: cookie.maxAgeSeconds * 1000 });
};

export const clearBrowserCookie = (res: Response, cookie: BrowserCookie): void => {
  res.clearCookie(cookie.name, optionsOf(cookie));
};

/** The first cookie of that name (the browser sends the one of the longest path first). */
export function cookieOf(req: Request, name: string): string | undefined {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/**
 * The binding cookie of one kind of flow, by provider: `where` gives the provider's callback URL and how
 * long its state lives. A unit sets it at the start, reads and clears it at the callback.
 */
export function browserBinding(
  name: string,
  where: (provider: string) => { url: string; maxAgeSeconds: number },
) {
  const cookie = (provider: string): BrowserCookie => ({ name, ...where(provider) });
  return {
    set: (res: Response, provider: string, nonce: string) => setBrowserCookie(res, cookie(provider), nonce),
    clear: (res: Response, provider: string) => clearBrowserCookie(res, cookie(provider)),
    of: (req: Request) => cookieOf(req, name),
  };
}

/**
 * Sends the browser on to the provider's authorization page: a 302 to it (the body names it too, as
 * `authorization_url`), or, to a client that asks for JSON (`Accept: application/json`), a 200 with
 * that link. A page cannot follow its fetch to another site's page, and a browser's navigation carries
 * no bearer token: such a page starts with fetch, keeps the cookie of the answer (same origin), and
 * opens the link itself.
 */
export function toAuthorization(req: Request, res: Response, authorizationUrl: string): void {
  res.setHeader('Cache-Control', 'no-store');
  res.vary('Accept');
  const payload = envelope({ authorization_url: authorizationUrl });
  if (req.accepts(['text/html', 'application/json']) === 'application/json') res.status(200).json(payload);
  else res.status(302).location(authorizationUrl).json(payload);
}
