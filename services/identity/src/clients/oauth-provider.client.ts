import { createResilientClient } from '@pp/http-client/resilient-client';
import type { Logger } from '@pp/logger';
import { z } from 'zod';
import { profileFromGithub, profileFromOidc, type SocialProfile } from '../domain/social-profile.ts';
import { OAuthFailedError } from '../errors.ts';
import type { OAuthProvider } from './oauth-providers.ts';

export interface OAuthProviderClient {
  /** Trades the authorization code (and the PKCE verifier) for the provider's access token. */
  exchangeCode(input: { code: string; codeVerifier: string; redirectUri: string }): Promise<string>;
  fetchProfile(accessToken: string): Promise<SocialProfile>;
}

const tokenResponse = z.object({ access_token: z.string().min(1) });

/** The provider's token and userinfo endpoints, behind a timeout and a circuit breaker (no retries: codes are single-use). */
export function createOAuthProviderClient(
  provider: OAuthProvider,
  options: { logger: Logger; timeoutMs: number },
): OAuthProviderClient {
  const http = createResilientClient({
    name: `oauth_${provider.id}`,
    baseURL: new URL(provider.tokenUrl).origin,
    timeoutMs: options.timeoutMs,
    retries: 0,
    maxResponseBytes: 256 * 1024,
    logger: options.logger,
  });

  async function getJson(url: string, accessToken: string): Promise<unknown> {
    const res = await http.request({
      url,
      headers: {
        authorization: `Bearer ${accessToken}`,
        accept: 'application/json',
        'user-agent': 'planning-poker',
      },
    });
    if (res.status !== 200) throw new OAuthFailedError('The sign-on provider did not share the profile');
    return res.data;
  }

  return {
    async exchangeCode({ code, codeVerifier, redirectUri }) {
      const body = new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_id: provider.clientId,
        client_secret: provider.clientSecret,
        code_verifier: codeVerifier,
      });
      const res = await http.request({
        url: provider.tokenUrl,
        method: 'POST',
        data: body.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      });
      // GitHub answers refusals with 200 and an `error` field, so the access token is what decides.
      const parsed = tokenResponse.safeParse(res.data);
      if (res.status !== 200 || !parsed.success) {
        options.logger.warn({ provider: provider.id, status: res.status }, 'oauth code exchange refused');
        throw new OAuthFailedError();
      }
      return parsed.data.access_token;
    },
    async fetchProfile(accessToken) {
      try {
        if (provider.profileStyle === 'github') {
          const user = await getJson(provider.userinfoUrl, accessToken);
          const emails = provider.emailsUrl
            ? await getJson(provider.emailsUrl, accessToken).catch(() => [])
            : [];
          return profileFromGithub(user, emails);
        }
        return profileFromOidc(await getJson(provider.userinfoUrl, accessToken));
      } catch (err) {
        if (err instanceof z.ZodError)
          throw new OAuthFailedError('The sign-on provider sent a profile we cannot read');
        throw err;
      }
    },
  };
}
