import type { AxiosInstance, AxiosRequestConfig } from 'axios';
import type { z } from 'zod';
import { AppError } from '@pp/http';
import type { OAuthApp } from '../domain/oauth.ts';
import { ProviderRejectedError, ProviderUnavailableError } from '../errors.ts';
import { jsonOf } from './providers/provider-http.ts';

export interface TokenSet {
  access_token: string;
  refresh_token?: string;
  /** Seconds the access token lives, when the provider says. */
  expires_in?: number;
  scope?: string;
}

/** The provider no longer honours this grant (a used, expired or revoked refresh token): reconnect. */
export class InvalidGrantError extends AppError {
  constructor() {
    super(409, 'needs_reconnection', 'The provider no longer accepts this connection: connect it again');
  }
}

export interface OAuthClient {
  exchange(app: OAuthApp, code: string, redirectUri: string, verifier?: string): Promise<TokenSet>;
  refresh(app: OAuthApp, refreshToken: string): Promise<TokenSet>;
  /** GET of a JSON resource with a fresh token (Atlassian's accessible resources), read through its schema. */
  getJson<S extends z.ZodType>(url: string, accessToken: string, schema: S): Promise<z.output<S>>;
}

/** The token endpoint of each provider's OAuth app, through the SSRF-guarded client. */
export function createOAuthClient(outbound: AxiosInstance): OAuthClient {
  /**
   * A call to the provider; no answer at all is a 503 saying only why (axios's error carries the
   * request, its Authorization header included, which must reach neither the log nor the client).
   */
  const send = (config: AxiosRequestConfig) =>
    outbound.request(config).catch((err: unknown) => {
      throw new ProviderUnavailableError('The OAuth provider', { message: (err as Error).message });
    });

  async function token(app: OAuthApp, grant: Record<string, string>): Promise<TokenSet> {
    const fields: Record<string, string> = { ...grant };
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (app.clientAuth === 'basic')
      headers.Authorization = `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`;
    else Object.assign(fields, { client_id: app.clientId, client_secret: app.clientSecret });
    const res = await send({
      method: 'POST',
      url: app.tokenUrl,
      headers: {
        ...headers,
        'Content-Type': app.body === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
      },
      data: app.body === 'json' ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
    });
    const body = (typeof res.data === 'object' && res.data ? res.data : {}) as Record<string, unknown>;
    // GitHub answers 200 with an error field; the others 400 or 401
    if (
      body.error === 'invalid_grant' ||
      body.error === 'bad_verification_code' ||
      body.error === 'bad_refresh_token'
    )
      throw new InvalidGrantError();
    if (res.status >= 500) throw new ProviderUnavailableError('The OAuth provider', { status: res.status });
    if (res.status >= 300 || typeof body.access_token !== 'string')
      throw new ProviderRejectedError(
        'The OAuth provider',
        String(body.error ?? `HTTP ${res.status}`).slice(0, 100),
      );
    return {
      access_token: body.access_token,
      refresh_token: typeof body.refresh_token === 'string' ? body.refresh_token : undefined,
      expires_in: Number.isFinite(Number(body.expires_in)) ? Number(body.expires_in) : undefined,
      scope: typeof body.scope === 'string' ? body.scope : undefined,
    };
  }
  return {
    exchange: (app, code, redirectUri, verifier) =>
      token(app, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        ...(verifier ? { code_verifier: verifier } : {}),
      }),
    refresh: (app, refreshToken) => token(app, { grant_type: 'refresh_token', refresh_token: refreshToken }),
    async getJson(url, accessToken, schema) {
      const res = await send({
        url,
        headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
      });
      if (res.status !== 200) throw new ProviderRejectedError('The OAuth provider', `HTTP ${res.status}`);
      return jsonOf('The OAuth provider', res, schema);
    },
  };
}
