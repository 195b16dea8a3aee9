import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { browserHashOf } from '@pp/http';
import { takeOAuthState } from '../db/oauth-state.repository.ts';
import type { ImportProviderId } from '../domain/providers.ts';
import { InvalidOAuthStateError, OAuthNotConfiguredError, ProviderRejectedError } from '../errors.ts';
import { encryptCredentials, storeConnection } from './shared/connections.ts';
import { connectionView } from './shared/connection-view.ts';
import type { IntegrationsContext } from './shared/context.ts';
import { redirectUri } from './start-oauth.use-case.ts';

/** The sites an Atlassian grant reaches: the cloud id the API is called with, and the site's address. */
const accessibleResources = z.array(
  z.looseObject({ id: z.string().min(1).max(100), url: z.url().max(2_000) }),
);

export interface CallbackInput {
  code?: string;
  state: string;
  error?: string;
  /** The nonce of the browser's cookie, set at start: only that browser can finish. */
  browserNonce?: string;
}

/**
 * The provider sends the browser back here: the state is taken (one use, whatever follows) by the
 * browser that started (else the provider's link of someone's flow, opened by another person, would
 * store that person's tracker token in the account of whoever started), checked against its
 * signature, provider, lifetime and, when the request is signed in, its caller; the code is
 * exchanged (with the PKCE verifier) and the connection stored with its tokens encrypted. A Jira
 * connection also keeps the cloud id of the first site the grant reaches.
 */
export async function finishOAuth(
  ctx: IntegrationsContext,
  provider: string,
  input: CallbackInput,
  callerId?: string,
) {
  const id = ctx.states.idOf(input.state);
  const state =
    id && input.browserNonce
      ? await takeOAuthState(ctx.em, id, browserHashOf(input.browserNonce), ctx.now())
      : undefined;
  if (!state || state.provider !== provider || !ctx.states.verify(input.state, state.ownerId, provider))
    throw new InvalidOAuthStateError();
  if (callerId !== undefined && callerId !== state.ownerId) throw new InvalidOAuthStateError();
  if (input.error || !input.code)
    throw new ProviderRejectedError('The OAuth provider', input.error ?? 'no code');
  const app = ctx.oauthApps[provider as ImportProviderId];
  if (!app) throw new OAuthNotConfiguredError(provider);
  const verifier = state.codeVerifier
    ? ctx.cipher.decrypt(state.codeVerifier, `oauth-state:${state.id}`)
    : undefined;
  const tokens = await ctx.oauth.exchange(app, input.code, redirectUri(ctx, provider), verifier);
  const credentials: Record<string, string> = { access_token: tokens.access_token };
  if (tokens.refresh_token) credentials.refresh_token = tokens.refresh_token;
  const settings: Record<string, unknown> = {};
  if (provider === 'jira') {
    const sites = await ctx.oauth.getJson(
      `${ctx.jiraCloudApiUrl.replace(/\/+$/, '')}/oauth/token/accessible-resources`,
      tokens.access_token,
      accessibleResources,
    );
    if (!sites[0]) throw new ProviderRejectedError('Jira', 'the grant reaches no site');
    credentials.cloud_id = sites[0].id;
    settings.site_url = sites[0].url;
  }
  const now = ctx.now();
  const row = {
    id: randomUUID(),
    ownerId: state.ownerId,
    provider,
    name: state.name,
    authMethod: 'oauth' as const,
    settings,
    credentials: '',
    status: 'active' as const,
    account: null,
    tokenExpiresAt: tokens.expires_in ? new Date(now.getTime() + tokens.expires_in * 1000) : null,
    createdAt: now,
    updatedAt: now,
  };
  row.credentials = encryptCredentials(ctx, row, credentials);
  await storeConnection(ctx, row);
  return connectionView(row);
}
