import { browserHashOf, createBrowserNonce, oauthStateSigner, pkcePair } from '@pp/http';
import { createOAuthState } from '../db/oauth-state.repository.ts';
import { ProviderNotFoundError } from '../errors.ts';
import type { OAuthProvider } from '../clients/oauth-providers.ts';
import type { Config } from '../config.ts';
import type { IdentityContext } from './shared/context.ts';

/** The signed `state` of a sign-on, bound to its provider (its key derived from the token signing key). */
export const oauthStates = (key: string) => oauthStateSigner(key, 'pp-identity');

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
  const pkce = pkcePair();
  const browserNonce = createBrowserNonce();
  const state = createOAuthState(
    ctx.em,
    { provider: provider.id, codeVerifier: pkce.verifier, browserHash: browserHashOf(browserNonce) },
    ctx.now(),
    ctx.config.OAUTH_STATE_TTL_SECONDS,
  );
  await ctx.em.flush();
  const url = new URL(provider.authorizeUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', provider.clientId);
  url.searchParams.set('redirect_uri', redirectUriFor(ctx.config, provider.id));
  url.searchParams.set('scope', provider.scopes);
  url.searchParams.set('state', oauthStates(ctx.config.TOKEN_SIGNING_KEY).sign(state.id, provider.id));
  url.searchParams.set('code_challenge', pkce.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return { authorizationUrl: url.toString(), expiresAt: state.expiresAt, browserNonce };
}
