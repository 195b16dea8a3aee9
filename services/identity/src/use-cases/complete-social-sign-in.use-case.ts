import { browserHashOf } from '@pp/http';
import { consumeOAuthState } from '../db/oauth-state.repository.ts';
import type { OAuthProviderClient } from '../clients/oauth-provider.client.ts';
import { InvalidOAuthStateError, OAuthFailedError, ProviderNotFoundError } from '../errors.ts';
import type { IdentityContext } from './shared/context.ts';
import { commitSignOn, findOrCreateSocialUser } from './shared/find-or-create-social-user.ts';
import { issueAccessToken } from './shared/issue-access-token.ts';
import { oauthStates, redirectUriFor } from './start-social-sign-in.use-case.ts';

export interface CallbackInput {
  code?: string;
  state?: string;
  error?: string;
  /** The nonce of the browser's sign-on cookie: set at start, so only that browser can finish. */
  browserNonce?: string;
}

/**
 * The provider sent the browser back: the state must be ours, unexpired, unused and started by this
 * browser (else the callback link of someone's sign-on would sign whoever opens it in as that someone);
 * the code is exchanged with the stored PKCE verifier; the profile decides the account; an access token
 * is issued.
 */
export async function completeSocialSignIn(
  ctx: IdentityContext,
  clients: ReadonlyMap<string, OAuthProviderClient>,
  providerId: string,
  input: CallbackInput,
) {
  const client = clients.get(providerId);
  if (!client) throw new ProviderNotFoundError(providerId);
  const stateId = input.state
    ? oauthStates(ctx.config.TOKEN_SIGNING_KEY).verify(input.state, providerId)
    : undefined;
  if (!stateId || !input.browserNonce) throw new InvalidOAuthStateError();
  // Consumed before anything else, so a state works once even when the rest fails.
  const codeVerifier = await consumeOAuthState(
    ctx.em,
    { id: stateId, provider: providerId, browserHash: browserHashOf(input.browserNonce) },
    ctx.now(),
  );
  if (!codeVerifier) throw new InvalidOAuthStateError();
  if (input.error || !input.code)
    throw new OAuthFailedError('Sign-on was cancelled or refused at the provider', 'oauth_denied');

  const providerToken = await client.exchangeCode({
    code: input.code,
    codeVerifier,
    redirectUri: redirectUriFor(ctx.config, providerId),
  });
  const profile = await client.fetchProfile(providerToken);
  const user = await findOrCreateSocialUser(ctx, providerId, profile);
  const issued = issueAccessToken(ctx, user.id, `oauth:${providerId}`);
  await commitSignOn(ctx);
  ctx.publish();
  return { user, ...issued };
}
