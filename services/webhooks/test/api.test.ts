import type { Resolver } from '@pp/outbound';
import { startReceiver, type Receiver } from './support/receiver.ts';
import { rounds } from './support/rounds.ts';
import { startWebhooksPlatform, type WebhooksPlatform } from './support/webhooks-harness.ts';

/** A DNS under a test's control: `rebind.test` answers a public address first, then loopback. */
let rebindAnswers = 0;
const resolve: Resolver = async (host) => {
  if (host === 'rebind.test')
    return [{ address: rebindAnswers++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
  const table: Record<string, string> = {
    'hooks.example.com': '93.184.216.34',
    'internal.test': '127.0.0.1',
    'ten.test': '10.1.2.3',
    'metadata.test': '169.254.169.254',
  };
  const address = table[host];
  if (!address) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return [{ address, family: 4 }];
};

/** The API with the outbound guard as in production (private targets refused). */
describe('the webhooks API', () => {
  let p: WebhooksPlatform;
  let ann: string;
  let bob: string;
  let receiver: Receiver;
  beforeAll(async () => {
    p = await startWebhooksPlatform({ env: { OUTBOUND_ALLOW_PRIVATE: 'false' }, resolve });
    [ann, bob] = [await p.signUp('Ann'), await p.signUp('Bob')];
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await p?.stop();
  });
  const register = (token: string, body: Record<string, unknown>) =>
    p.client.post('/webhooks', { token, body });

  it.each([
    ['plain http', 'http://hooks.example.com/in'],
    ['a loopback address', 'https://127.0.0.1/in'],
    ['an IPv4-mapped loopback address', 'https://[::ffff:127.0.0.1]/in'],
    ['a numeric loopback host', 'https://0x7f000001/in'],
    ['a decimal loopback host', 'https://2130706433/in'],
    ['a name resolving to 127.0.0.1', 'https://internal.test/in'],
    ['a name resolving to 10.x', 'https://ten.test/in'],
    ['a name resolving to 169.254.169.254', 'https://metadata.test/latest'],
    ['the metadata address', 'https://169.254.169.254/latest/meta-data'],
    ['a name that does not resolve', 'https://nowhere.test/in'],
  ])('refuses %s with a 422 naming url', async (_, url) => {
    const res = await register(ann, { url, events: ['*'] });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      success: false,
      error: { code: 'validation_failed' },
      errors: { url: [expect.stringMatching(/^refused/)] },
    });
  });

  it.each([
    ['internal.test', '127.0.0.1'],
    ['ten.test', '10.1.2.3'],
    ['metadata.test', '169.254.169.254'],
  ])('refuses %s naming the host given, never the address it resolved to', async (host, address) => {
    const res = await register(ann, { url: `https://${host}/in`, events: ['*'] });
    expect(res.status).toBe(422);
    expect(res.body.errors.url[0]).toContain(host);
    expect(res.text).not.toContain(address);
  });

  it('registers an https endpoint resolving to a public address, and shows the secret only then', async () => {
    const res = await register(ann, {
      url: 'https://hooks.example.com/in',
      events: ['story.revealed', 'story.revealed'],
    });
    expect(res.status).toBe(201);
    expect(res.body.webhook).toMatchObject({
      url: 'https://hooks.example.com/in',
      kind: 'generic',
      events: ['story.revealed'],
      session_code: null,
      enabled: true,
      secret: expect.stringMatching(/^whsec_/),
    });
    const { id, secret } = res.body.webhook;
    const read = await p.client.get(`/webhooks/${id}`, { token: ann });
    expect(read.body.webhook.secret).toBeUndefined();
    expect(read.text).not.toContain(secret.slice(6));
    const stored = (await p
      .units()[0]!
      .runtime.db.fork()
      .getConnection()
      .execute('select secret_sealed from webhooks where id = ?', [id])) as Array<{ secret_sealed: string }>;
    expect(stored[0]!.secret_sealed).toMatch(/^v1\./);
    expect(stored[0]!.secret_sealed).not.toContain(secret.slice(6));
  });

  it('checks the address again at delivery: a name that now resolves to loopback is not called', async () => {
    const hook = (
      await register(ann, {
        url: `https://rebind.test:${receiver.port}/in`,
        events: ['story.created'],
      })
    ).body.webhook;
    expect(hook.id).toBeDefined();
    const test = await p.client.post(`/webhooks/${hook.id}/test`, { token: ann });
    expect(test.status).toBe(202);
    // The test delivery's own (story.created events of earlier tests may bring deliveries of their own).
    const delivery = await p.until(async () => {
      const list = (await p.client.get(`/webhooks/${hook.id}/deliveries`, { token: ann })).body.deliveries;
      const found = list.find((d: { id: string }) => d.id === test.body.delivery.id);
      return found?.attempts.length > 0 && found;
    });
    expect(delivery.attempts[0]).toMatchObject({
      status_code: null,
      error: expect.stringMatching(/rebind\.test resolves to an address the platform does not call/),
    });
    expect(delivery.status).toBe('failed');
    expect(receiver.received).toHaveLength(0);
  });

  it("keeps each account's webhooks to itself: another's id is a 403 everywhere, and absent from lists", async () => {
    const mine = (await register(ann, { url: 'https://hooks.example.com/a', events: ['*'] })).body.webhook;
    const test = await p.client.post(`/webhooks/${mine.id}/test`, { token: ann });
    const deliveryId = test.body.delivery.id;
    const calls = [
      p.client.get(`/webhooks/${mine.id}`, { token: bob }),
      p.client.patch(`/webhooks/${mine.id}`, { token: bob, body: { enabled: false } }),
      p.client.post(`/webhooks/${mine.id}/test`, { token: bob }),
      p.client.get(`/webhooks/${mine.id}/deliveries`, { token: bob }),
      p.client.post(`/webhooks/${mine.id}/deliveries/${deliveryId}/redeliver`, { token: bob }),
      p.client.delete(`/webhooks/${mine.id}`, { token: bob }),
    ];
    for (const res of await Promise.all(calls))
      expect([res.status, res.body.error.code]).toEqual([403, 'forbidden']);
    const list = await p.client.get('/webhooks?per_page=100', { token: bob });
    expect(list.body.webhooks.map((w: { id: string }) => w.id)).not.toContain(mine.id);
    expect((await p.client.get(`/webhooks/${mine.id}`, { token: ann })).body.webhook.enabled).toBe(true);
  });

  it("refuses a webhook on another account's session, as if the code were unknown", async () => {
    const session = await rounds(p, ann).session();
    const res = await register(bob, {
      url: 'https://hooks.example.com/b',
      events: ['*'],
      session_code: session.code,
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ session_code: ['no session of yours has this code'] });
    const own = await register(ann, {
      url: 'https://hooks.example.com/b',
      events: ['*'],
      session_code: session.code,
    });
    expect(own.body.webhook.session_code).toBe(session.code);
  });

  it('pages the list, changes, rotates and deletes', async () => {
    const token = await p.signUp('Cy');
    for (const n of [1, 2, 3])
      await register(token, { url: `https://hooks.example.com/${n}`, events: ['vote.cast'] });
    const page2 = await p.client.get('/webhooks?per_page=2&page=2', { token });
    expect(page2.body.meta).toEqual({ current_page: 2, per_page: 2, total: 3, last_page: 2 });
    expect(page2.body.webhooks.map((w: { url: string }) => w.url)).toEqual(['https://hooks.example.com/3']);
    const id = page2.body.webhooks[0].id;
    const changed = await p.client.patch(`/webhooks/${id}`, {
      token,
      body: { url: 'https://hooks.example.com/new', events: ['*'], enabled: false },
    });
    expect(changed.body.webhook).toMatchObject({
      url: 'https://hooks.example.com/new',
      events: ['*'],
      enabled: false,
      disabled_reason: 'disabled by its owner',
    });
    expect(changed.body.webhook.secret).toBeUndefined();
    expect((await p.client.post(`/webhooks/${id}/test`, { token })).status).toBe(409);
    const refused = await p.client.patch(`/webhooks/${id}`, {
      token,
      body: { url: 'https://internal.test/' },
    });
    expect(refused.status).toBe(422);
    const deleted = await p.client.delete(`/webhooks/${id}`, { token });
    expect(deleted.status).toBe(200);
    expect((await p.client.get(`/webhooks/${id}`, { token })).status).toBe(404);
  });

  it.each([
    ['an unknown field', { url: 'https://hooks.example.com/x', events: ['*'], secret: 'whsec_mine' }],
    ['no events', { url: 'https://hooks.example.com/x', events: [] }],
    ['an unknown event', { url: 'https://hooks.example.com/x', events: ['story.eaten'] }],
    ['an internal event', { url: 'https://hooks.example.com/x', events: ['token.revoked'] }],
    ['an unknown kind', { url: 'https://hooks.example.com/x', events: ['*'], kind: 'irc' }],
    ['a NUL in the URL', { url: 'https://hooks.example.com/\u0000', events: ['*'] }],
    ['an oversized URL', { url: `https://hooks.example.com/${'a'.repeat(3000)}`, events: ['*'] }],
    ['a malformed session code', { url: 'https://hooks.example.com/x', events: ['*'], session_code: 'AB' }],
  ])('refuses %s with a 422', async (_, body) => {
    const res = await register(ann, body);
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
  });

  it('answers 404 for ids that cannot name anything, 422/400 for bad pages, 401 without a token', async () => {
    expect((await p.client.get('/webhooks/not-a-uuid', { token: ann })).status).toBe(404);
    expect((await p.client.get('/webhooks/99999999999', { token: ann })).status).toBe(404);
    const hook = (await register(ann, { url: 'https://hooks.example.com/z', events: ['*'] })).body.webhook;
    const res = await p.client.post(
      `/webhooks/${hook.id}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`,
      {
        token: ann,
      },
    );
    expect([res.status, res.body.error.code]).toEqual([404, 'delivery_not_found']);
    expect((await p.client.get('/webhooks?per_page=1000', { token: ann })).status).toBe(422);
    expect((await p.client.get('/webhooks?page=4294967296', { token: ann })).status).toBe(422);
    expect((await p.client.get('/webhooks?page=abc', { token: ann })).status).toBe(400);
    expect((await p.client.get('/webhooks')).status).toBe(401);
  });

  it('keeps at most 250 webhooks per account, also against a burst: 40 at once from 230 make 20 and refuse 20', async () => {
    const cal = await p.signUp('Cal');
    const hook = (n: number) => register(cal, { url: `https://hooks.example.com/cal/${n}`, events: ['*'] });
    for (let batch = 0; batch < 23; batch++) {
      const made = await Promise.all(Array.from({ length: 10 }, (_, i) => hook(batch * 10 + i)));
      expect(made.map((r) => r.status)).toEqual(Array(10).fill(201));
    }
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => hook(1000 + i)));
    expect(burst.filter((r) => r.status === 201)).toHaveLength(20);
    const refused = burst.filter((r) => r.status === 409);
    expect(refused).toHaveLength(20);
    expect(refused[0]!.body.error.code).toBe('too_many_webhooks');
    const listed = await p.client.get('/webhooks?per_page=1', { token: cal });
    expect(listed.body.meta.total).toBe(250);
    // Another account is not held back.
    expect((await register(bob, { url: 'https://hooks.example.com/bob', events: ['*'] })).status).toBe(201);
  });
});
