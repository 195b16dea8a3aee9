import { createHash } from 'node:crypto';
import type { SeenRequest } from './fake-server.ts';
import type { startGithubFake } from './github.fake.ts';

/**
 * GitHub's OAuth token endpoint (form body, JSON answer with Accept: application/json): the code of an
 * authorization, checked against its PKCE challenge; refresh tokens that rotate (a used one is dead).
 * The tokens it issues are the ones the GitHub fake then accepts.
 */
export function githubOAuth(github: Awaited<ReturnType<typeof startGithubFake>>) {
  const state = {
    challenge: '',
    issued: 0,
    live: new Set<string>(),
    revoked: false,
    refreshDelayMs: 0,
    /** The lifetime a refresh answer names (expires_in); null: it names none, as RFC 6749 allows. */
    refreshLifetime: 3600 as number | null,
  };
  const route = async (req: SeenRequest) => {
    if (req.method !== 'POST' || req.path !== '/login/oauth/access_token') return { status: 404, json: {} };
    const form = new URLSearchParams(req.text);
    if (form.get('client_id') !== 'gh-client' || form.get('client_secret') !== 'gh-secret')
      return { status: 401, json: { error: 'invalid_client' } };
    if (form.get('grant_type') === 'authorization_code') {
      const verifier = form.get('code_verifier') ?? '';
      const ok =
        form.get('code') === 'the-code' &&
        createHash('sha256').update(verifier).digest('base64url') === state.challenge;
      if (!ok) return { json: { error: 'bad_verification_code' } };
    } else {
      await new Promise((resolve) => setTimeout(resolve, state.refreshDelayMs));
      const given = form.get('refresh_token') ?? '';
      if (state.revoked || !state.live.delete(given))
        return { status: 400, json: { error: 'invalid_grant' } };
    }
    const n = ++state.issued;
    state.live.add(`refresh-${n}`);
    github.tokens.add(`gho-${n}`);
    // The code exchange's token is this short-lived, so it is refreshed at its next use; a refreshed
    // one lasts an hour (a test makes it expire by hand).
    return {
      json: {
        access_token: `gho-${n}`,
        refresh_token: `refresh-${n}`,
        ...(form.get('grant_type') !== 'refresh_token'
          ? { expires_in: 30 }
          : state.refreshLifetime === null
            ? {}
            : { expires_in: state.refreshLifetime }),
        token_type: 'bearer',
      },
    };
  };
  return { state, route };
}

/** The client's app at that fake, and the fake as GitHub's OAuth address. */
export const githubOAuthEnv = (url: string) => ({
  INTEGRATION_GITHUB_CLIENT_ID: 'gh-client',
  INTEGRATION_GITHUB_CLIENT_SECRET: 'gh-secret',
  GITHUB_OAUTH_URL: url,
});
