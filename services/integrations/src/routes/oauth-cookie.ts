import type { Request, Response } from 'express';
import { clearBrowserCookie, cookieOf, setBrowserCookie, type BrowserCookie } from '@pp/http';
import type { IntegrationsContext } from '../use-cases/shared/context.ts';
import { redirectUri } from '../use-cases/start-oauth.use-case.ts';

/**
 * The cookie that binds an OAuth connection's state to the browser that started it: sent to that
 * provider's callback only (so never beside the sign-on's, whose callback is identity's).
 */
const NAME = 'pp_oauth_connection';

type Settings = Pick<IntegrationsContext, 'publicBaseUrl' | 'stateTtlSeconds'>;

const cookieFor = (ctx: Settings, provider: string): BrowserCookie => ({
  name: NAME,
  url: redirectUri(ctx, provider),
  maxAgeSeconds: ctx.stateTtlSeconds,
});

export const setOAuthCookie = (res: Response, ctx: Settings, provider: string, nonce: string) =>
  setBrowserCookie(res, cookieFor(ctx, provider), nonce);

export const clearOAuthCookie = (res: Response, ctx: Settings, provider: string) =>
  clearBrowserCookie(res, cookieFor(ctx, provider));

export const oauthCookieOf = (req: Request): string | undefined => cookieOf(req, NAME);
