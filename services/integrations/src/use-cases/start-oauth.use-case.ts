import { browserHashOf, createBrowserNonce } from '@pp/http';
import { insertOAuthState } from '../db/oauth-state.repository.ts';
import { pkcePair } from '@pp/http';
import { isImportProvider, providerSpec } from '../domain/providers.ts';
import { OAuthNotConfiguredError, fieldError } from '../errors.ts';
import type { IntegrationsContext } from './shared/context.ts';

export const redirectUri = (ctx: Pick<IntegrationsContext, 'publicBaseUrl'>, provider: string) =>
  `${ctx.publicBaseUrl.replace(/\/+$/, '')}/integrations/oauth/${provider}/callback`;

/**
 * Where the caller's browser goes to grant access: the provider's authorize URL with a `state` that
 * is random, signed for this caller and provider, stored for one use within the state's lifetime, and
 * a PKCE challenge where the provider takes one (its verifier kept encrypted with the state). Also the
 * nonce the caller's browser is to keep (in a cookie) to finish with: the state keeps its hash, so that
 * the provider's link, opened in another browser, connects no one's tracker to the caller's account.
 */
export async function startOAuth(ctx: IntegrationsContext, ownerId: string, provider: string, name?: string) {
  const spec = providerSpec(provider);
  if (!spec || !isImportProvider(provider)) throw fieldError('provider', 'unknown tracker provider');
  if (!spec.auth.includes('oauth'))
    throw fieldError('provider', `${spec.name} has no OAuth: connect with a token`);
  const app = ctx.oauthApps[provider];
  if (!app) throw new OAuthNotConfiguredError(spec.name);
  const { id, state } = ctx.states.newState(ownerId, provider);
  const pkce = app.pkce ? pkcePair() : undefined;
  const browserNonce = createBrowserNonce();
  await insertOAuthState(ctx.em, {
    id,
    ownerId,
    provider,
    name: name ?? spec.name,
    codeVerifier: pkce ? ctx.cipher.encrypt(pkce.verifier, `oauth-state:${id}`) : null,
    browserHash: browserHashOf(browserNonce),
    expiresAt: new Date(ctx.now().getTime() + ctx.stateTtlSeconds * 1000),
  });
  const url = new URL(app.authorizeUrl);
  const params: Record<string, string> = {
    client_id: app.clientId,
    redirect_uri: redirectUri(ctx, provider),
    response_type: 'code',
    state,
    ...(app.scope ? { scope: app.scope } : {}),
    ...(pkce ? { code_challenge: pkce.challenge, code_challenge_method: 'S256' } : {}),
    ...app.extra,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return { location: url.toString(), browserNonce };
}
