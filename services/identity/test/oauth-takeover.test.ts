import { jetstreamManager } from '@nats-io/jetstream';
import { signIdentity } from '@pp/http';
import { api } from '@pp/testing';
import type { FakeOAuthProvider } from './support/fake-oauth-provider.ts';
import { asService, INTERNAL_KEY, type IdentityHarness } from './support/identity-harness.ts';
import { startWithSignOn } from './support/sign-on.ts';
import { followSignOn } from './support/oauth-flow.ts';

let provider: FakeOAuthProvider;
let identity: IdentityHarness;
const client = api(() => identity.url);
const asUser = (sub: string) => ({
  'x-pp-identity': signIdentity(INTERNAL_KEY, {
    sub,
    kind: 'user',
    token_kind: 'access',
    iss: 'gateway',
    aud: 'identity',
  }),
});
const active = async (token: string) =>
  (await client.post('/internal/tokens/introspect', { body: { token }, headers: asService() })).body.active;
const signOn = async (name: 'github' | 'google') => {
  const flow = await followSignOn(identity.url, name);
  return client.get(flow.callbackPath, { headers: flow.browser });
};
/** How many token.revoked events went out on the bus. */
async function revokedOnBus() {
  await identity.relay.drain();
  const subject = `${identity.bus.prefix}.token.revoked`;
  const jsm = await jetstreamManager(identity.nc);
  const stream = await jsm.streams.info(identity.bus.stream, { subjects_filter: subject });
  return stream.state.subjects?.[subject] ?? 0;
}
const logIn = (password: string) =>
  client.post('/auth/login', { body: { email: 'victim@example.com', password } });

let stop: () => Promise<void>;
beforeAll(async () => {
  ({ provider, identity, stop } = await startWithSignOn());
});
afterAll(() => stop());

describe('identity: a provider that verifies an email nobody had proven takes the account back', () => {
  it('clears the password and revokes every earlier token (token.revoked on the bus); the sign-on token works', async () => {
    // Someone registers the victim's email before the victim ever comes.
    const reg = await client.post('/auth/register', {
      body: { email: 'victim@example.com', password: 'squatter-pass', name: 'Squatter' },
    });
    const userId = reg.body.user.id;
    const made = async (kind: 'api' | 'mcp') =>
      (await client.post('/auth/tokens', { body: { name: kind, kind }, headers: asUser(userId) })).body.token;
    const [apiToken, mcpToken] = [await made('api'), await made('mcp')];
    const squatterLogin = await logIn('squatter-pass');
    expect(squatterLogin.status).toBe(200);
    const earlier = [reg.body.token, apiToken.token, mcpToken.token, squatterLogin.body.token];
    for (const token of earlier) expect(await active(token)).toBe(true);

    provider.signInAs({ sub: '4242', email: 'victim@example.com', emailVerified: true, name: 'Victim' });
    const res = await signOn('github');
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: userId, email_verified: true });

    const login = await logIn('squatter-pass');
    expect(login.status).toBe(401);
    expect(login.body.error.code).toBe('invalid_credentials');
    for (const token of earlier) expect(await active(token)).toBe(false);
    expect(await active(res.body.token)).toBe(true);
    // register's and the login's access tokens, the API and MCP tokens: four revocations, published.
    expect(await revokedOnBus()).toBe(4);
  });

  it('unlinks a provider identity linked on an unverified email: it no longer signs in to the account', async () => {
    // A provider that does not vouch for the address makes an account with it unverified, linked to them.
    provider.signInAs({ sub: 'g-777', email: 'second@example.com', emailVerified: false, name: 'Squatter' });
    const squatter = await signOn('google');
    expect(squatter.body.user.email_verified).toBe(false);
    provider.signInAs({ sub: '777', email: 'second@example.com', emailVerified: true, name: 'Owner' });
    const owner = await signOn('github');
    expect(owner.body.user.id).toBe(squatter.body.user.id);
    expect(await active(squatter.body.token)).toBe(false);
    provider.signInAs({ sub: 'g-777', email: 'second@example.com', emailVerified: false, name: 'Squatter' });
    const again = await signOn('google');
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('email_unverified');
    expect(await active(owner.body.token)).toBe(true);
  });

  it('leaves an account whose email was already verified as it is: a second provider revokes nothing', async () => {
    // As if the account had a password again: what a verified account keeps.
    const other = await client.post('/auth/register', {
      body: { email: 'other@example.com', password: 'owner-pass', name: 'Other' },
    });
    await identity.db
      .fork()
      .getConnection()
      .execute(
        `update users set password_hash = (select password_hash from users where id = ?) where email = ?`,
        [other.body.user.id, 'victim@example.com'],
      );
    provider.signInAs({ sub: '4242', email: 'victim@example.com', emailVerified: true, name: 'Victim' });
    const first = await signOn('github');
    const apiToken = await client.post('/auth/tokens', {
      body: { name: 'kept', kind: 'api' },
      headers: asUser(first.body.user.id),
    });
    provider.signInAs({ sub: 'g-4242', email: 'victim@example.com', emailVerified: true, name: 'Victim' });
    const second = await signOn('google');
    expect(second.body.user.id).toBe(first.body.user.id);
    expect(await active(first.body.token)).toBe(true);
    expect(await active(apiToken.body.token.token)).toBe(true);
    expect((await logIn('owner-pass')).status).toBe(200);
    expect(await revokedOnBus()).toBe(5);
  });
});
