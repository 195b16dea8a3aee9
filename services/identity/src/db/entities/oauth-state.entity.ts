import { defineEntity, p } from '@pp/db';

/**
 * A sign-on in progress: the PKCE verifier waits here until the callback consumes it (once), brought
 * by the browser whose cookie's nonce hashes to `browserHash`.
 */
const OAuthStateSchema = defineEntity({
  name: 'OAuthState',
  tableName: 'oauth_states',
  properties: {
    id: p.uuid().primary(),
    provider: p.string(),
    codeVerifier: p.string(),
    browserHash: p.string(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
  },
});
export class OAuthState extends OAuthStateSchema.class {}
OAuthStateSchema.setClass(OAuthState);
