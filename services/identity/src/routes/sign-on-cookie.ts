import type { Request, Response } from 'express';
import { clearBrowserCookie, cookieOf, setBrowserCookie, type BrowserCookie } from '@pp/http';
import type { Config } from '../config.ts';
import { redirectUriFor } from '../use-cases/start-social-sign-in.use-case.ts';

/** The cookie that binds a sign-on's state to the browser that started it: sent to that provider's callback only. */
const NAME = 'pp_sign_on';

const cookieFor = (config: Config, provider: string): BrowserCookie => ({
  name: NAME,
  url: redirectUriFor(config, provider),
  maxAgeSeconds: config.OAUTH_STATE_TTL_SECONDS,
});

export const setSignOnCookie = (res: Response, config: Config, provider: string, nonce: string) =>
  setBrowserCookie(res, cookieFor(config, provider), nonce);

export const clearSignOnCookie = (res: Response, config: Config, provider: string) =>
  clearBrowserCookie(res, cookieFor(config, provider));

export const signOnCookieOf = (req: Request): string | undefined => cookieOf(req, NAME);
