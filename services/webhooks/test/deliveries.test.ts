import { Webhook } from 'standardwebhooks';
import { runStatement } from '@pp/db';
import { startReceiver, type Receiver } from './support/receiver.ts';
import { rounds } from './support/rounds.ts';
import { startWebhooksPlatform, type WebhooksPlatform } from './support/webhooks-harness.ts';

/** Deliveries through the real platform: events from the sessions and stories units, to local receivers. */
describe('webhook deliveries', () => {
  let p: WebhooksPlatform;
  let token: string;
  let r: ReturnType<typeof rounds>;
  const receivers: Receiver[] = [];
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const started = await startReceiver(...args);
    receivers.push(started);
    return started;
  };
  beforeAll(async () => {
    p = await startWebhooksPlatform({
      resolve: async (host) => {
        if (host === 'metadata.test') return [{ address: '169.254.169.254', family: 4 }];
        if (host === 'metadata6.test') return [{ address: 'fd00:ec2::254', family: 6 }];
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    });
    token = await p.signUp('Olive');
    r = rounds(p, token);
  });
  afterAll(async () => {
    for (const x of receivers) await x.close();
    await p?.stop();
  });

  /** The webhook's deliveries, newest first, once the newest has succeeded. */
  const onceSucceeded = (hookId: string) =>
    p.until(async () => {
      const list = await r.deliveries(hookId);
      return list[0]?.status === 'succeeded' && list;
    });

  it('a reveal reaches a generic endpoint, signed so that the Standard Webhooks verifier accepts it', async () => {
    const rx = await receiver();
    const hook = await r.webhook({ url: rx.url, events: ['story.revealed'] });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const { story } = await r.revealedRound({ record_vote_names: true }, 'Login page', {
      Ann: '5',
      Bob: '5',
    });

    const got = await p.until(async () => rx.received[0]);
    const verified = new Webhook(hook.secret).verify(got.body, {
      'webhook-id': got.headers['webhook-id'] as string,
      'webhook-timestamp': got.headers['webhook-timestamp'] as string,
      'webhook-signature': got.headers['webhook-signature'] as string,
    }) as Record<string, any>;
    expect(verified).toMatchObject({
      type: 'story.revealed',
      data: { story: { id: story, title: 'Login page', final_estimate: '5' } },
    });
    expect(
      verified.data.story.votes.map((v: { participant: { name: string } }) => v.participant.name).sort(),
    ).toEqual(['Ann', 'Bob']);
    expect(got.headers['content-type']).toBe('application/json');
    expect(() =>
      new Webhook(hook.secret).verify(
        got.body.replace('Login', 'Logout'),
        got.headers as Record<string, string>,
      ),
    ).toThrow();
    // The attempt is recorded once the receiver's answer is in, a moment after the receiver got it.
    const delivery = await p.until(async () => {
      const [d] = await r.deliveries(hook.id);
      return d?.status === 'pending' ? undefined : d;
    });
    expect(delivery).toMatchObject({
      id: got.headers['webhook-id'],
      event_type: 'story.revealed',
      status: 'succeeded',
    });
    expect(delivery!.attempts).toEqual([
      expect.objectContaining({ number: 1, status_code: 200, response_excerpt: 'ok', error: null }),
    ]);
  });

  it('a receiver failing twice gets the event on the third attempt, with the same webhook-id', async () => {
    const rx = await receiver((n) => (n <= 2 ? { status: 500, body: 'down' } : { status: 204 }));
    const hook = await r.webhook({ url: rx.url, events: ['story.created'] });
    const session = await r.session();
    await r.story(session.code, 'Retry me');

    await p.until(async () => rx.received.length >= 3);
    const ids = rx.received.map((x) => x.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);
    const log = await p.until(async () => {
      const [d] = await r.deliveries(hook.id);
      return d?.status === 'succeeded' && d;
    });
    expect(log.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 204]);
    expect(log.attempts[0].response_excerpt).toBe('down');
    expect(log.attempt_count).toBe(3);
    await new Promise((res) => setTimeout(res, 300));
    expect(rx.received).toHaveLength(3);
  });

  it('honours a Retry-After on a 429', async () => {
    const rx = await receiver((n) =>
      n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 },
    );
    await r.webhook({ url: rx.url, events: ['story.created'] });
    const session = await r.session();
    await r.story(session.code, 'Slow down');
    await p.until(async () => rx.received.length >= 2, 5_000);
    // Counted from the 429's answer, which came after the first request arrived.
    expect(rx.received[1]!.at - rx.received[0]!.at).toBeGreaterThanOrEqual(1_000);
  });

  it('records the answer of a receiver that answers binary (a NUL byte), and the attempts after it', async () => {
    const binary = await receiver(() => ({ status: 200, body: 'ok\u0000\u0001' }));
    const rx = await receiver();
    const hook = await r.webhook({ url: binary.url, events: ['story.created'] });
    const session = await r.session();
    await r.story(session.code, 'Binary answer');
    const [delivery] = await onceSucceeded(hook.id);
    expect(delivery!.attempts).toEqual([
      expect.objectContaining({ number: 1, status_code: 200, response_excerpt: 'ok\ufffd\u0001' }),
    ]);
    const other = await r.webhook({ url: rx.url, events: ['story.created'] });
    await r.story(session.code, 'After it');
    await p.until(async () => (await r.deliveries(other.id))[0]?.status === 'succeeded');
    expect(binary.received).toHaveLength(2);
    expect(rx.received).toHaveLength(1);
  });

  it('a webhook deleted while an attempt is in flight does not hold back the record of other attempts', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((res) => (answer = res));
    const busy = await receiver(() => ({ status: 200, after: answered }));
    const rx = await receiver();
    const deleted = await r.webhook({ url: busy.url, events: ['story.created'] });
    const session = await r.session();
    await r.story(session.code, 'Deleted meanwhile');
    await p.until(async () => busy.received.length > 0);
    expect((await p.client.delete(`/webhooks/${deleted.id}`, { token })).status).toBe(200);
    answer();

    const other = await r.webhook({ url: rx.url, events: ['story.created'] });
    await r.story(session.code, 'After the deletion');
    const [log] = await onceSucceeded(other.id);
    expect(log!.attempts).toEqual([expect.objectContaining({ number: 1, status_code: 200 })]);
    expect(rx.received).toHaveLength(1);
  });

  it('records the other attempts when the database refuses the record of one, rather than none again', async () => {
    const refusing = await receiver();
    const rx = await receiver();
    const hook = await r.webhook({ url: refusing.url, events: ['story.created'] });
    // A row the database will never take (as it refuses text it cannot store): any attempt of this webhook's.
    await runStatement(
      p.databaseUrl,
      `create function refuse_attempt() returns trigger language plpgsql as $$ begin
         if exists (select 1 from deliveries where id = new.delivery_id and webhook_id = '${hook.id}') then
           raise exception 'this attempt cannot be stored';
         end if;
         return new;
       end $$`,
    );
    await runStatement(
      p.databaseUrl,
      'create trigger refuse_attempt before insert on delivery_attempts for each row execute function refuse_attempt()',
    );
    try {
      const session = await r.session();
      await r.story(session.code, 'Not recorded');
      await p.until(async () => refusing.received.length > 0);
      // Attempts made after it are recorded, whatever batch they are written in.
      const other = await r.webhook({ url: rx.url, events: ['story.created'] });
      await r.story(session.code, 'Recorded');
      const [log] = await onceSucceeded(other.id);
      expect(log!.attempts).toEqual([expect.objectContaining({ number: 1, status_code: 200 })]);
      expect((await r.deliveries(hook.id)).every((d) => d.attempts.length === 0)).toBe(true);
    } finally {
      await runStatement(p.databaseUrl, 'drop trigger refuse_attempt on delivery_attempts');
    }
  });

  it('a 410 disables the webhook at once, and says why', async () => {
    const rx = await receiver(() => ({ status: 410 }));
    const hook = await r.webhook({ url: rx.url, events: ['story.created'] });
    const session = await r.session();
    await r.story(session.code, 'Gone');
    const disabled = await p.until(async () => {
      const res = await p.client.get(`/webhooks/${hook.id}`, { token });
      return res.body.webhook.enabled === false && res.body.webhook;
    });
    expect(disabled.disabled_reason).toMatch(/410/);
    await r.story(session.code, 'Not sent');
    await new Promise((res) => setTimeout(res, 300));
    expect(rx.received).toHaveLength(1);

    const enabled = await p.client.patch(`/webhooks/${hook.id}`, { token, body: { enabled: true } });
    expect(enabled.body.webhook).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
  });

  it('Slack, Teams and Discord receivers get a reveal in their own formats, naming who voted what', async () => {
    const [slack, teams, discord] = [await receiver(), await receiver(), await receiver()];
    const session = await r.session({ record_vote_names: true });
    for (const [rx, kind] of [
      [slack, 'slack'],
      [teams, 'teams'],
      [discord, 'discord'],
    ] as const)
      await r.webhook({ url: rx.url, events: ['story.revealed'], kind, session_code: session.code });
    const story = await r.story(session.code, 'Checkout <@everyone>');
    await r.vote(session.code, 'Ann', '8');
    await r.vote(session.code, 'Bob', '8');
    await r.reveal(story);

    const s = (await p.until(async () => slack.bodies()[0])) as any;
    expect(s.text).toContain('Final estimate: 8');
    expect(s.blocks[0]).toMatchObject({ type: 'section', text: { type: 'mrkdwn' } });
    expect(s.blocks[0].text.text).toContain('Checkout &lt;@everyone&gt;');
    expect(s.blocks[1].fields.map((f: { text: string }) => f.text).sort()).toEqual(['*Ann*\n8', '*Bob*\n8']);

    const t = (await p.until(async () => teams.bodies()[0])) as any;
    expect(t.type).toBe('message');
    const card = t.attachments[0];
    expect(card.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card.content).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
    expect(card.content.body[2].facts).toEqual(
      expect.arrayContaining([
        { title: 'Ann', value: '8' },
        { title: 'Bob', value: '8' },
      ]),
    );

    const d = (await p.until(async () => discord.bodies()[0])) as any;
    expect(d.allowed_mentions).toEqual({ parse: [] });
    expect(d.content.length).toBeLessThanOrEqual(2000);
    expect(d.content).toContain('Final estimate: 8');
    expect(d.embeds[0].fields).toEqual(
      expect.arrayContaining([
        { name: 'Ann', value: '8', inline: true },
        { name: 'Bob', value: '8', inline: true },
      ]),
    );
  });

  it('a session that does not record names sends the votes without them', async () => {
    const rx = await receiver();
    await r.webhook({ url: rx.url, events: ['story.revealed'] });
    await r.revealedRound({ record_vote_names: false }, 'Anonymous', { Ann: '3', Bob: '5' });
    const body = await p.until(async () => rx.bodies()[0]);
    expect(body.data.story.votes.map((v: { participant: unknown }) => v.participant)).toEqual([
      { id: null, name: null },
      { id: null, name: null },
    ]);
  });

  it('a webhook of one session gets its events only; "*" gets every type', async () => {
    const rx = await receiver();
    const all = await receiver();
    const mine = await r.session();
    const other = await r.session();
    await r.webhook({ url: rx.url, events: ['story.created'], session_code: mine.code.toLowerCase() });
    await r.webhook({ url: all.url, events: ['*'], session_code: mine.code });
    await r.story(other.code, 'Elsewhere');
    await r.story(mine.code, 'Here');
    await r.vote(mine.code, 'Cy', '2');
    await p.until(async () => all.bodies().some((b) => b.type === 'vote.cast'));
    expect(rx.bodies().map((b) => b.data.story.title)).toEqual(['Here']);
    expect(all.bodies().map((b) => b.type)).toEqual(
      expect.arrayContaining(['story.created', 'participant.joined', 'vote.cast']),
    );
  });

  it('a vote.cast webhook gets the votes of a session that reveals by itself as of any other', async () => {
    const rx = await receiver();
    await r.webhook({ url: rx.url, events: ['vote.cast'] });
    const auto = await r.session({ auto_reveal: true });
    const plain = await r.session();
    for (const s of [auto, plain]) await r.story(s.code, 'Story');
    await r.vote(auto.code, 'Ann', '3');
    await r.vote(plain.code, 'Bob', '5');
    const votes = await p.until(async () => rx.bodies().length >= 2 && rx.bodies());
    expect(votes.map((b) => [b.type, b.data.session_code, b.data.participant.name]).sort()).toEqual(
      [
        ['vote.cast', auto.code, 'Ann'],
        ['vote.cast', plain.code, 'Bob'],
      ].sort(),
    );
  });

  it('after a rotation both secrets sign for a while; the test delivery and a redelivery keep the webhook-id', async () => {
    const rx = await receiver();
    const hook = await r.webhook({ url: rx.url, events: ['story.created'] });
    const rotated = await p.client.patch(`/webhooks/${hook.id}`, { token, body: { rotate_secret: true } });
    expect(rotated.status).toBe(200);
    const secret = rotated.body.webhook.secret as string;
    expect(secret).not.toBe(hook.secret);
    expect(rotated.body.webhook.previous_secret_expires_at).not.toBeNull();
    expect((await p.client.get(`/webhooks/${hook.id}`, { token })).body.webhook.secret).toBeUndefined();

    const test = await p.client.post(`/webhooks/${hook.id}/test`, { token });
    expect(test.status).toBe(202);
    const got = await p.until(async () => rx.received[0]);
    expect(JSON.parse(got.body).type).toBe('webhook.test');
    expect((got.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    for (const s of [secret, hook.secret])
      expect(() => new Webhook(s).verify(got.body, got.headers as Record<string, string>)).not.toThrow();

    await p.until(async () => (await r.deliveries(hook.id))[0]?.status === 'succeeded');
    const again = await p.client.post(`/webhooks/${hook.id}/deliveries/${test.body.delivery.id}/redeliver`, {
      token,
    });
    expect(again.status).toBe(202);
    // The answer is the delivery as queued: pending, with the attempts made before (the new one is
    // not in it, however fast it is made).
    expect(again.body.delivery).toMatchObject({ id: test.body.delivery.id, status: 'pending' });
    expect(again.body.delivery.attempts.map((a: { manual: boolean }) => a.manual)).toEqual([false]);
    await p.until(async () => rx.received.length >= 2);
    expect(rx.received[1]!.headers['webhook-id']).toBe(test.body.delivery.id);
    const [log] = await p.until(async () => {
      const list = await r.deliveries(hook.id);
      return list[0]?.attempts.length === 2 && list;
    });
    expect(log!.attempts.map((a: { manual: boolean }) => a.manual)).toEqual([false, true]);
  });

  it('refuses metadata and link-local addresses even with private targets allowed', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://metadata.test/latest',
      'http://metadata6.test/',
      'http://[fd00:ec2::254]/',
      'http://[::ffff:169.254.169.254]/',
      'http://[fe80::1]/',
      'http://100.100.100.200/latest/meta-data',
    ]) {
      const res = await p.client.post('/webhooks', { token, body: { url, events: ['*'] } });
      expect([url, res.status, Object.keys(res.body.errors ?? {})]).toEqual([url, 422, ['url']]);
    }
  });
});
