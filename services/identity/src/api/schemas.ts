import { z } from 'zod';
import type { RouteDoc } from '@pp/http';

/**
 * The identity service's public API as zod schemas: the routes validate with them and the gateway
 * builds its OpenAPI document from them (payloads are the resource-named keys of the envelope).
 */
const isoDate = z.iso.datetime({ offset: true });

export const registerBody = z
  .object({
    email: z.email().max(320),
    password: z.string().min(8).max(256),
    name: z.string().trim().min(1).max(100),
  })
  .meta({ id: 'RegisterRequest' });

export const loginBody = z
  .object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(256) })
  .meta({ id: 'LoginRequest' });

export const createTokenBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    kind: z.enum(['api', 'mcp']),
    expires_at: isoDate
      .optional()
      .meta({ description: 'Optional expiry; API and MCP tokens do not expire by default' }),
  })
  .meta({ id: 'CreateTokenRequest' });

export const introspectBody = z.object({ token: z.string().max(512) });
export const tokenIdParams = z.object({ id: z.string().meta({ description: 'Token id' }) });
export const providerParams = z.object({
  provider: z.string().meta({ description: 'Sign-on provider id, e.g. github or google' }),
});
export const callbackQuery = z.object({
  code: z.string().max(2048).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(1024).optional(),
});

export const user = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string(),
    email_verified: z.boolean(),
    created_at: isoDate,
  })
  .meta({ id: 'User' });

export const personalToken = z
  .object({
    id: z.uuid(),
    name: z.string(),
    kind: z.enum(['access', 'api', 'mcp']),
    prefix: z.string().meta({ description: 'The first characters of the secret, to tell tokens apart' }),
    created_at: isoDate,
    expires_at: isoDate.nullable(),
    last_used_at: isoDate.nullable(),
  })
  .meta({ id: 'Token' });

export const createdToken = personalToken
  .extend({
    token: z.string().meta({
      description: 'The secret: shown in this answer only, send it as `Authorization: Bearer <token>`',
    }),
  })
  .meta({ id: 'CreatedToken' });

const authPayload = z.object({
  user,
  token: z.string().meta({ description: 'Access token: send it as `Authorization: Bearer <token>`' }),
  token_type: z.literal('Bearer'),
  expires_at: isoDate,
});

export const provider = z.object({ id: z.string(), name: z.string() }).meta({ id: 'SignOnProvider' });

type Doc = RouteDoc;

/** The documentation of each public identity endpoint, keyed like the gateway's route table ("METHOD /path"). */
export const identityApi: Record<string, Doc> = {
  'POST /auth/register': {
    summary: 'Create an account with email and password',
    body: registerBody,
    responses: {
      201: { description: 'The account and a first access token', payload: authPayload },
      409: { description: 'Email already used (`duplicate`)' },
    },
  },
  'POST /auth/login': {
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
    body: createTokenBody,
    responses: {
      201: { description: 'The token with its secret', payload: z.object({ token: createdToken }) },
    },
  },
  'GET /auth/tokens': {
    summary: "The caller's API and MCP tokens (never the secrets)",
    responses: {
      200: { description: 'Tokens, newest first', payload: z.object({ tokens: z.array(personalToken) }) },
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
    summary: 'Social sign-on providers that are configured',
    responses: { 200: { description: 'Providers', payload: z.object({ providers: z.array(provider) }) } },
  },
  'GET /auth/oauth/{provider}/start': {
    summary: 'Begin social sign-on (OAuth 2.0 / OIDC with PKCE S256)',
    description:
      'Redirects (302) to the provider with a signed, single-use `state`; the body carries `authorization_url` too.',
    params: providerParams,
    responses: {
      302: {
        description: 'Redirect to the provider',
        payload: z.object({ authorization_url: z.url() }),
        headers: { Location: 'The provider authorization URL' },
      },
    },
  },
  'GET /auth/oauth/{provider}/callback': {
    summary: 'Finish social sign-on',
    description:
      'Exchanges the code, finds or creates the account (linking by verified email) and answers with an access token; when a return URL is configured it redirects there with the token in the URL fragment.',
    params: providerParams,
    query: callbackQuery,
    responses: {
      200: { description: 'The account and an access token', payload: authPayload },
      302: { description: 'Redirect to the configured return URL (`#token=...`)' },
      400: { description: 'State forged, expired or already used (`invalid_oauth_state`)' },
      401: { description: 'The provider refused (`oauth_denied`, `oauth_failed`)' },
    },
  },
};
