import type { CookieOptions, Request, Response } from 'express';
import type { Config } from '../config.ts';
import { redirectUriFor } from '../use-cases/start-social-sign-in.use-case.ts';

/**
 * The cookie that binds a sign-on's state to the browser that started it. SameSite=Lax, so that it
 * comes back on the provider's top-level redirect; sent to that provider's callback only.
 */
const NAME = 'pp_sign_on';

const optionsFor = (config: Config, provider: string): CookieOptions => ({
  httpOnly: true,
  sameSite: 'lax',
  secure: new URL(config.PUBLIC_BASE_URL).protocol === 'https:',
  // The path the browser sees: the public callback URL's, which may sit under a prefix of the gateway.
  path: new URL(redirectUriFor(config, provider)).pathname,
});

/** Kept as long as the state, so that it is gone when the state could no longer be used anyway. */
export const setSignOnCookie = (res: Response, config: Config, provider: string, nonce: string) =>
  res.cookie(NAME, nonce, { ...optionsFor(config, provider), maxAge: config.OAUTH_STATE_TTL_SECONDS * 1000 });

export const clearSignOnCookie = (res: Response, config: Config, provider: string) =>
  res.clearCookie(NAME, optionsFor(config, provider));

/** The first cookie of that name (the browser sends the one of the longest path first). */
export function signOnCookieOf(req: Request): string | undefined {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === NAME) return pair.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}
