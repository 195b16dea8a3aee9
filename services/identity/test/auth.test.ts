import { signIdentity } from '@pp/http';
import { api } from '@pp/testing';
import { asService, INTERNAL_KEY, startIdentity, type IdentityHarness } from './support/identity-harness.ts';

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

beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(() => identity.stop());

describe('identity: accounts', () => {
  it('registers a user with 201, the user and an access token, and stores no plain password', async () => {
    const res = await client.post('/auth/register', {
      body: { email: 'Ann@Example.com', password: 'correct horse', name: 'Ann' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      user: { email: 'ann@example.com', name: 'Ann' },
      token_type: 'Bearer',
    });
    expect(res.body.data.user.id).toBe(res.body.user.id);
    expect(res.body.token).toMatch(/^pp_access_[A-Za-z0-9_-]{43}$/);
    const rows = (await identity.db
      .fork()
      .getConnection()
      .execute('select password_hash from users')) as Array<{ password_hash: string }>;
    expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$/);
    const tokens = (await identity.db
      .fork()
      .getConnection()
      .execute('select secret_hash from tokens')) as Array<{ secret_hash: string }>;
    expect(tokens.map((t) => t.secret_hash)).not.toContain(res.body.token);
  });

  it('refuses a second account with the same email (any case) with 409 duplicate', async () => {
    const res = await client.post('/auth/register', {
      body: { email: 'ANN@example.com', password: 'another pass', name: 'Ann 2' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, error: { code: 'duplicate' } });
  });

  it('answers 422 with errors by field for a short password and a bad email', async () => {
    const res = await client.post('/auth/register', { body: { email: 'nope', password: 'short', name: '' } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'name', 'password']);
  });

  it('refuses a field it does not take (an id, a role) with 422 naming it, and makes no account', async () => {
    const res = await client.post('/auth/register', {
      body: { email: 'extra@example.com', password: 'correct horse', name: 'Extra', role: 'admin' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors._body).toEqual([expect.stringContaining('role')]);
    const login = await client.post('/auth/login', {
      body: { email: 'extra@example.com', password: 'correct horse' },
    });
    expect(login.status).toBe(401);
    const extra = await client.post('/auth/login', {
      body: { email: 'ann@example.com', password: 'correct horse', remember: true },
    });
    expect(extra.status).toBe(422);
  });

  it('logs in with the right password and refuses a wrong one or an unknown email with 401', async () => {
    const ok = await client.post('/auth/login', {
      body: { email: 'ann@example.com', password: 'correct horse' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.token).toMatch(/^pp_access_/);
    const wrong = await client.post('/auth/login', {
      body: { email: 'ann@example.com', password: 'wrong horse' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('invalid_credentials');
    const unknown = await client.post('/auth/login', {
      body: { email: 'bob@example.com', password: 'correct horse' },
    });
    expect(unknown.status).toBe(401);
  });

  it('answers /auth/me for the signed identity and 401 without one or with a forged one', async () => {
    const reg = await client.post('/auth/register', {
      body: { email: 'me@example.com', password: 'password1', name: 'Me' },
    });
    const me = await client.get('/auth/me', { headers: asUser(reg.body.user.id) });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ id: reg.body.user.id, email: 'me@example.com' });
    const anonymous = await client.get('/auth/me');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    const forged = await client.get('/auth/me', {
      headers: {
        'x-pp-identity': signIdentity('x'.repeat(40), {
          sub: reg.body.user.id,
          kind: 'user',
          iss: 'gateway',
          aud: 'identity',
        }),
      },
    });
    expect(forged.status).toBe(401);
  });
});

describe('identity: introspection', () => {
  it('tells the gateway whose a token is, and only the gateway', async () => {
    const reg = await client.post('/auth/register', {
      body: { email: 'intro@example.com', password: 'password1', name: 'Intro' },
    });
    const res = await client.post('/internal/tokens/introspect', {
      body: { token: reg.body.token },
      headers: asService(),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      active: true,
      identity: { sub: reg.body.user.id, kind: 'user', token_kind: 'access', name: 'Intro' },
    });
    const garbage = await client.post('/internal/tokens/introspect', {
      body: { token: 'pp_api_' + 'a'.repeat(43) },
      headers: asService(),
    });
    expect(garbage.body.active).toBe(false);
    const asAUser = await client.post('/internal/tokens/introspect', {
      body: { token: reg.body.token },
      headers: asUser(reg.body.user.id),
    });
    expect(asAUser.status).toBe(403);
    expect(
      (await client.post('/internal/tokens/introspect', { body: { token: reg.body.token } })).status,
    ).toBe(403);
  });

  it('reports an expired access token as inactive', async () => {
    const reg = await client.post('/auth/register', {
      body: { email: 'old@example.com', password: 'password1', name: 'Old' },
    });
    await identity.db
      .fork()
      .getConnection()
      .execute(`update tokens set expires_at = now() - interval '1 second'`);
    const res = await client.post('/internal/tokens/introspect', {
      body: { token: reg.body.token },
      headers: asService(),
    });
    expect(res.body).toEqual({ success: true, active: false });
  });
});
