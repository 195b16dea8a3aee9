import { z } from 'zod';
import type { UnitDocs } from '@pp/http';
import {
  authPayload,
  callbackQuery,
  createTokenBody,
  createdToken,
  isoDate,
  loginBody,
  personalToken,
  provider,
  providerParams,
  registerBody,
  tokenIdParams,
  user,
} from './schemas.ts';

/** The documentation of each public identity endpoint, keyed like the gateway's route table ("METHOD /path"). */
export const identityApi = {
  'POST /auth/register': {
    public: true,
    summary: 'Create an account with email and password',
    description:
      'The email is not verified: if a sign-on provider later verifies it (GET /auth/oauth/{provider}/callback), the account is taken back, its password and tokens stop working.',
    body: registerBody,
    responses: {
      201: { description: 'The account and a first access token', payload: authPayload },
      409: { description: 'Email already used (`duplicate`)' },
    },
  },
  'POST /auth/login': {
    public: true,
    summary: 'Sign in with email and password',
    body: loginBody,
    responses: {
      200: { description: 'A new access token', payload: authPayload },
      401: { description: 'Bad credentials (`invalid_credentials`)' },
    },
  },
  'GET /auth/me': {
    summary: 'The signed-in user',
    responses: { 200: { description: 'The user', payload: z.object({ user }) } },
  },
  'POST /auth/tokens': {
    summary: 'Create an API or MCP token (the secret is shown once)',
    description:
      'Only an access token from signing in (register, login or social sign-on) may create tokens: an API or MCP token ' +
      'is refused (403 `access_token_required`), so that a token cannot make others that would outlive its revocation. ' +
      'An API or MCP token lives until revoked, or until `expires_at` when one is given (a moment in the future): from then on ' +
      'every request with it answers 401 `invalid_token`, on every gateway replica, even one that had it cached. ' +
      'An account has at most 100 API and MCP tokens that still work (revoked and expired ones do not count).',
    body: createTokenBody,
    responses: {
      201: { description: 'The token with its secret', payload: z.object({ token: createdToken }) },
      403: {
        description: 'Asked with an API or MCP token rather than an access token (`access_token_required`)',
      },
      409: { description: 'The account has 100 working tokens already (`too_many_tokens`)' },
    },
  },
  'GET /auth/tokens': {
    summary: "The caller's API and MCP tokens (never the secrets)",
    description:
      'The tokens that still work, each with its `expires_at` (null for a token that lives until revoked). ' +
      'Only an access token from signing in may list them (an API or MCP token: 403 `access_token_required`).',
    responses: {
      200: { description: 'Tokens, newest first', payload: z.object({ tokens: z.array(personalToken) }) },
      403: {
        description: 'Asked with an API or MCP token rather than an access token (`access_token_required`)',
      },
    },
  },
  'DELETE /auth/tokens/{id}': {
    summary: 'Revoke a token: it stops working at once on every gateway replica',
    params: tokenIdParams,
    responses: {
      200: {
        description: 'The revoked token',
        payload: z.object({ token: personalToken.extend({ revoked_at: isoDate }) }),
      },
    },
  },
  'GET /auth/oauth/providers': {
    public: true,
    summary: 'Social sign-on providers that are configured',
    responses: { 200: { description: 'Providers', payload: z.object({ providers: z.array(provider) }) } },
  },
  'GET /auth/oauth/{provider}/start': {
    public: true,
    summary: 'Begin social sign-on (OAuth 2.0 / OIDC with PKCE S256)',
    description:
      'Redirects (302) to the provider with a signed, single-use `state`; the body carries `authorization_url` too. ' +
      'It sets a cookie (HttpOnly, SameSite=Lax, sent to the callback only, kept as long as the state) that binds the state to this browser: ' +
      'the browser that starts sign-on must be the one that finishes it (open this path in that browser, not from a server). ' +
      'A page that wants the link (to open it in a window of its own) asks with `Accept: application/json`: the answer is then a 200 with `authorization_url`, and the same cookie.',
    params: providerParams,
    responses: {
      200: {
        description: 'The provider authorization URL, to open (asked with `Accept: application/json`)',
        payload: z.object({ authorization_url: z.url() }),
        headers: { 'Set-Cookie': 'The cookie binding the state to this browser' },
      },
      302: {
        description: 'Redirect to the provider',
        payload: z.object({ authorization_url: z.url() }),
        headers: {
          Location: 'The provider authorization URL',
          'Set-Cookie': 'The cookie binding the state to this browser',
        },
      },
    },
  },
  'GET /auth/oauth/{provider}/callback': {
    public: true,
    summary: 'Finish social sign-on',
    description:
      'Exchanges the code, finds or creates the account (linking by verified email) and answers with an access token; when a return URL is configured it redirects there with the token in the URL fragment. ' +
      "Only the browser that started sign-on can finish it: the state is accepted with the cookie start set in that browser, and refused (400 `invalid_oauth_state`) without it or with another browser's, " +
      "so a callback link of someone else's sign-on signs no one in. The cookie is cleared. " +
      'When the provider has verified the email of an account whose email nobody had verified yet (registered with a password, or made by a sign-on whose provider did not verify it), ' +
      'the provider identity is linked and the account is taken back from whoever registered it: its password stops working (a password login answers 401), ' +
      'every access, API and MCP token issued before is revoked at once, and provider identities linked to it before (on an email their provider did not verify) are unlinked. An account whose email was already verified (by an earlier sign-on) keeps its password and tokens.',
    params: providerParams,
    query: callbackQuery,
    responses: {
      200: { description: 'The account and an access token', payload: authPayload },
      302: { description: 'Redirect to the configured return URL (`#token=...`)' },
      400: {
        description:
          'State forged, expired or already used, or brought by a browser other than the one that started (`invalid_oauth_state`)',
      },
      401: { description: 'The provider refused (`oauth_denied`, `oauth_failed`)' },
    },
  },
} satisfies UnitDocs;
