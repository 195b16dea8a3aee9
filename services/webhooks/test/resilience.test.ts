import { startReceiver, type Receiver } from './support/receiver.ts';
import { rounds } from './support/rounds.ts';
import { startWebhooksPlatform, type WebhooksPlatform } from './support/webhooks-harness.ts';

/** Retries survive a restart of the unit; replicas share the work without ever repeating an attempt. */
describe('webhook deliveries across restarts and replicas', () => {
  let p: WebhooksPlatform;
  let r: ReturnType<typeof rounds>;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    // The first retry comes about 1.5 s after the first attempt: time to restart the unit in between.
    p = await startWebhooksPlatform({ env: { WEBHOOKS_RETRY_SCALE: '0.3' }, replicas: 2 });
    r = rounds(p, await p.signUp('Rita'));
  });
  afterAll(async () => {
    for (const x of receivers) await x.close();
    await p?.stop();
  });

  it('a receiver down while the unit restarts gets the event afterwards, once', async () => {
    const down = await startReceiver();
    const port = down.port;
    await down.close();
    const hook = await r.webhook({ url: `http://127.0.0.1:${port}/hook`, events: ['story.revealed'] });
    await r.revealedRound({}, 'While down', { Ann: '3' });
    const [first] = await p.until(async () => {
      const list = await r.deliveries(hook.id);
      return list[0]?.attempts.length === 1 && list;
    });
    expect(first!.attempts[0].error).toMatch(/ECONNREFUSED/);
    expect(first!.status).toBe('pending');

    await p.stopWebhooks();
    const back = await startReceiver(undefined, port);
    receivers.push(back);
    await p.startWebhooks();

    await p.until(async () => back.received.length > 0, 15_000);
    const log = await p.until(async () => {
      const [d] = await r.deliveries(hook.id);
      return d?.status === 'succeeded' && d;
    });
    expect(log.attempts.map((a: { status_code: number | null }) => a.status_code)).toEqual([null, 200]);
    await new Promise((res) => setTimeout(res, 500));
    expect(back.received).toHaveLength(1);
    expect(back.received[0]!.headers['webhook-id']).toBe(first!.id);
  });

  it('two replicas deliver every event to every endpoint exactly once', async () => {
    const endpoints = await Promise.all(Array.from({ length: 5 }, () => startReceiver()));
    receivers.push(...endpoints);
    for (const rx of endpoints) await r.webhook({ url: rx.url, events: ['story.created'] });
    const session = await r.session();
    const titles = Array.from({ length: 20 }, (_, i) => `Story ${i}`);
    for (const title of titles) await r.story(session.code, title);

    await p.until(async () => endpoints.every((rx) => rx.received.length >= titles.length), 15_000);
    await new Promise((res) => setTimeout(res, 300));
    for (const rx of endpoints) {
      expect(
        rx
          .bodies()
          .map((b) => b.data.story.title)
          .sort(),
      ).toEqual([...titles].sort());
      expect(new Set(rx.received.map((x) => x.headers['webhook-id'])).size).toBe(titles.length);
    }
    expect(p.units()).toHaveLength(2);
  });
});
