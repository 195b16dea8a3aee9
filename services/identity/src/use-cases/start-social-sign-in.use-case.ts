import { browserHashOf, createBrowserNonce } from '@pp/http';
import { codeChallengeOf, createCodeVerifier, signState } from '../domain/pkce.ts';
import { createOAuthState } from '../db/oauth-state.repository.ts';
import { ProviderNotFoundError } from '../errors.ts';
import type { OAuthProvider } from '../clients/oauth-providers.ts';
import type { Config } from '../config.ts';
import type { IdentityContext } from './shared/context.ts';

export const redirectUriFor = (config: Pick<Config, 'PUBLIC_BASE_URL'>, providerId: string) =>
  `${config.PUBLIC_BASE_URL.replace(/\/$/, '')}/auth/oauth/${providerId}/callback`;

/**
 * Stores a single-use state with its PKCE verifier and answers with the provider's authorization URL,
 * and the nonce the browser is to keep (in a cookie) to finish sign-on with.
 */
export async function startSocialSignIn(
  ctx: IdentityContext,
  providers: OAuthProvider[],
  providerId: string,
) {
  const provider = providers.find((p) => p.id === providerId);
  if (!provider) throw new ProviderNotFoundError(providerId);
  const verifier = createCodeVerifier();
  const browserNonce = createBrowserNonce();
  const state = createOAuthState(
    ctx.em,
    { provider: provider.id, codeVerifier: verifier, browserHash: browserHashOf(browserNonce) },
    ctx.now(),
    ctx.config.OAUTH_STATE_TTL_SECONDS,
  );
  await ctx.em.flush();
  const url = new URL(provider.authorizeUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', provider.clientId);
  url.searchParams.set('redirect_uri', redirectUriFor(ctx.config, provider.id));
  url.searchParams.set('scope', provider.scopes);
  url.searchParams.set('state', signState(ctx.config.TOKEN_SIGNING_KEY, state.id));
  url.searchParams.set('code_challenge', codeChallengeOf(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  return { authorizationUrl: url.toString(), expiresAt: state.expiresAt, browserNonce };
}
