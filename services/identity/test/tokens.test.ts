import { eventEnvelopeSchema } from '@pp/contracts';
import { signIdentity } from '@pp/http';
import { api, pastMoment } from '@pp/testing';
import { asService, INTERNAL_KEY, startIdentity, type IdentityHarness } from './support/identity-harness.ts';

let identity: IdentityHarness;
const client = api(() => identity.url);
/** A user signed in with a token of this kind, as the gateway forwards it. */
const asUser = (sub: string, token_kind: 'access' | 'api' | 'mcp' = 'access') => ({
  'x-pp-identity': signIdentity(INTERNAL_KEY, {
    sub,
    kind: 'user',
    token_kind,
    iss: 'gateway',
    aud: 'identity',
  }),
});
const introspect = (token: string) =>
  client.post('/internal/tokens/introspect', { body: { token }, headers: asService() });

let ann: string;
let bob: string;

beforeAll(async () => {
  identity = await startIdentity();
  ann = (
    await client.post('/auth/register', {
      body: { email: 'ann@example.com', password: 'password1', name: 'Ann' },
    })
  ).body.user.id;
  bob = (
    await client.post('/auth/register', {
      body: { email: 'bob@example.com', password: 'password1', name: 'Bob' },
    })
  ).body.user.id;
});
afterAll(() => identity.stop());

describe('identity: API and MCP tokens', () => {
  it('creates an MCP token whose secret is shown once and which introspects as mcp', async () => {
    const res = await client.post('/auth/tokens', {
      body: { name: 'Claude', kind: 'mcp' },
      headers: asUser(ann),
    });
    expect(res.status).toBe(201);
    expect(res.body.token).toMatchObject({ name: 'Claude', kind: 'mcp', expires_at: null });
    expect(res.body.token.token).toMatch(/^pp_mcp_/);
    expect((await introspect(res.body.token.token)).body).toMatchObject({
      active: true,
      identity: { sub: ann, token_kind: 'mcp' },
    });
  });

  it('lists the caller’s tokens without any secret, and not another user’s', async () => {
    await client.post('/auth/tokens', { body: { name: 'CI', kind: 'api' }, headers: asUser(ann) });
    await client.post('/auth/tokens', { body: { name: 'Bob CI', kind: 'api' }, headers: asUser(bob) });
    const res = await client.get('/auth/tokens', { headers: asUser(ann) });
    expect(res.status).toBe(200);
    expect(res.body.tokens.map((t: { name: string }) => t.name)).toEqual(['CI', 'Claude']);
    expect(res.text).not.toMatch(/pp_(api|mcp)_[A-Za-z0-9_-]{43}/);
    expect(res.body.tokens[0]).not.toHaveProperty('token');
  });

  it('refuses a kind other than api or mcp and an expiry in the past with 422', async () => {
    const kind = await client.post('/auth/tokens', {
      body: { name: 'x', kind: 'access' },
      headers: asUser(ann),
    });
    expect(kind.status).toBe(422);
    expect(kind.body.errors).toHaveProperty('kind');
    const past = await client.post('/auth/tokens', {
      body: { name: 'x', kind: 'api', expires_at: '2001-01-01T00:00:00Z' },
      headers: asUser(ann),
    });
    expect(past.status).toBe(422);
    expect(past.body.errors).toHaveProperty('expires_at');
  });

  it('revokes a token: 200, inactive at once, and token.revoked published through the outbox', async () => {
    const created = await client.post('/auth/tokens', {
      body: { name: 'Temp', kind: 'api' },
      headers: asUser(ann),
    });
    const received: unknown[] = [];
    const sub = identity.nc.subscribe(`${identity.bus.prefix}.token.revoked`, {
      callback: (_err, msg) => void received.push(msg.json()),
    });
    const res = await client.delete(`/auth/tokens/${created.body.token.id}`, { headers: asUser(ann) });
    expect(res.status).toBe(200);
    expect(res.body.token).toMatchObject({ id: created.body.token.id, revoked_at: expect.any(String) });
    expect((await introspect(created.body.token.token)).body.active).toBe(false);
    const deadline = Date.now() + 3000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    sub.unsubscribe();
    const event = eventEnvelopeSchema.parse(received[0]);
    expect(event).toMatchObject({
      type: 'token.revoked',
      source: 'identity',
      data: { token_id: created.body.token.id, user_id: ann, kind: 'api' },
    });
  });

  it('answers 403 for another user’s token and 404 for an unknown or already revoked one', async () => {
    const created = await client.post('/auth/tokens', {
      body: { name: 'Mine', kind: 'api' },
      headers: asUser(ann),
    });
    expect(
      (await client.delete(`/auth/tokens/${created.body.token.id}`, { headers: asUser(bob) })).status,
    ).toBe(403);
    expect((await introspect(created.body.token.token)).body.active).toBe(true);
    expect(
      (await client.delete('/auth/tokens/00000000-0000-4000-8000-000000000000', { headers: asUser(ann) }))
        .status,
    ).toBe(404);
    expect((await client.delete('/auth/tokens/not-a-uuid', { headers: asUser(ann) })).status).toBe(404);
    expect(
      (await client.delete(`/auth/tokens/${created.body.token.id}`, { headers: asUser(ann) })).status,
    ).toBe(200);
    expect(
      (await client.delete(`/auth/tokens/${created.body.token.id}`, { headers: asUser(ann) })).status,
    ).toBe(404);
  });

  it('revokes a token once when asked many times at once: one 200 and one token.revoked, the rest 404', async () => {
    const created = await client.post('/auth/tokens', {
      body: { name: 'Raced', kind: 'mcp' },
      headers: asUser(ann),
    });
    const received: Array<{ data: { token_id: string } }> = [];
    const sub = identity.nc.subscribe(`${identity.bus.prefix}.token.revoked`, {
      callback: (_err, msg) => void received.push(msg.json()),
    });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        client.delete(`/auth/tokens/${created.body.token.id}`, { headers: asUser(ann) }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, ...Array(11).fill(404)]);
    const mine = () => received.filter((e) => e.data.token_id === created.body.token.id);
    const deadline = Date.now() + 3000;
    while (mine().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    // Any further event would have been published in the same burst as the first.
    await new Promise((r) => setTimeout(r, 300));
    sub.unsubscribe();
    expect(mine()).toHaveLength(1);
  });

  it('keeps at most 100 working tokens per account: tokens made at once stop at 100, and a revoked one frees its place', async () => {
    const carl = (
      await client.post('/auth/register', {
        body: { email: 'carl@example.com', password: 'password1', name: 'Carl' },
      })
    ).body.user.id;
    const make = (name: string) =>
      client.post('/auth/tokens', { body: { name, kind: 'api' }, headers: asUser(carl) });
    for (let i = 0; i < 80; i++) expect((await make(`t${i}`)).status).toBe(201);
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => make(`burst${i}`)));
    const statuses = burst.map((r) => r.status);
    expect([statuses.filter((s) => s === 201).length, statuses.filter((s) => s === 409).length]).toEqual([
      20, 20,
    ]);
    expect(burst.find((r) => r.status === 409)!.body.error.code).toBe('too_many_tokens');
    const listed = (await client.get('/auth/tokens', { headers: asUser(carl) })).body.tokens;
    expect(listed).toHaveLength(100);

    await client.delete(`/auth/tokens/${listed[0].id}`, { headers: asUser(carl) });
    expect((await make('after a revoke')).status).toBe(201);
    expect((await make('one too many')).status).toBe(409);
    // Another account is not held back.
    expect(
      (await client.post('/auth/tokens', { body: { name: 'x', kind: 'api' }, headers: asUser(bob) })).status,
    ).toBe(201);
  });

  it('makes and lists tokens only for an access token from signing in: an API or MCP token gets 403', async () => {
    for (const kind of ['api', 'mcp'] as const) {
      const made = await client.post('/auth/tokens', {
        body: { name: 'minted', kind: 'api' },
        headers: asUser(ann, kind),
      });
      expect([made.status, made.body.error.code]).toEqual([403, 'access_token_required']);
      const listed = await client.get('/auth/tokens', { headers: asUser(ann, kind) });
      expect([listed.status, listed.body.error.code]).toEqual([403, 'access_token_required']);
    }
    const mine = (await client.get('/auth/tokens', { headers: asUser(ann) })).body.tokens;
    expect(mine.map((t: { name: string }) => t.name)).not.toContain('minted');
    // Revoking stays open to every kind: a token can still sign itself out.
    const created = await client.post('/auth/tokens', {
      body: { name: 'Self', kind: 'mcp' },
      headers: asUser(ann),
    });
    const revoked = await client.delete(`/auth/tokens/${created.body.token.id}`, {
      headers: asUser(ann, 'mcp'),
    });
    expect(revoked.status).toBe(200);
  });

  it('gives a token the lifetime asked for: listed with its expires_at, and inactive once past it', async () => {
    // Long enough for the checks before it on a busy machine.
    const expiresAt = new Date(Date.now() + 3_000).toISOString();
    const created = await client.post('/auth/tokens', {
      body: { name: 'Short', kind: 'api', expires_at: expiresAt },
      headers: asUser(bob),
    });
    expect(created.status).toBe(201);
    expect(created.body.token.expires_at).toBe(expiresAt);
    const listed = (await client.get('/auth/tokens', { headers: asUser(bob) })).body.tokens;
    expect(listed.find((t: { id: string }) => t.id === created.body.token.id).expires_at).toBe(expiresAt);
    expect(listed.find((t: { name: string }) => t.name === 'Bob CI').expires_at).toBeNull();
    expect((await introspect(created.body.token.token)).body).toMatchObject({
      active: true,
      expires_at: expiresAt,
    });
    await pastMoment(expiresAt, 100);
    expect((await introspect(created.body.token.token)).body.active).toBe(false);
    const after = (await client.get('/auth/tokens', { headers: asUser(bob) })).body.tokens;
    expect(after.map((t: { id: string }) => t.id)).not.toContain(created.body.token.id);
  });

  it('needs a signed-in user for every token endpoint', async () => {
    expect((await client.get('/auth/tokens')).status).toBe(401);
    expect((await client.post('/auth/tokens', { body: { name: 'x', kind: 'api' } })).status).toBe(401);
  });
});
