import {
  AckPolicy,
  DeliverPolicy,
  jetstreamManager,
  type ConsumerInfo,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { publicEventTypes } from '@pp/contracts';
import { connectNats, eventBus, type NatsConnection } from '@pp/events';
import { createLogger } from '@pp/logger';
import { runStatement } from '@pp/db';
import { testNatsUrl } from '@pp/testing';
import { RETIRED_EVENTS_CONSUMER, durableFor } from '../src/background/event-subscriptions.ts';
import { startReceiver, type Receiver } from './support/receiver.ts';
import { rounds } from './support/rounds.ts';
import { startWebhooksPlatform, type WebhooksPlatform } from './support/webhooks-harness.ts';

const logger = createLogger({ name: 'webhooks-test', level: 'silent' });

/**
 * The webhooks unit receives only the events some webhook wants: a durable consumer per public event
 * type, there only while an enabled webhook subscribes to it; the durable of all events an earlier
 * version ran is taken over without losing what it had not handled.
 */
describe('webhook event consumers', () => {
  let p: WebhooksPlatform;
  let token: string;
  let r: ReturnType<typeof rounds>;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    p = await startWebhooksPlatform();
    token = await p.signUp('Wren');
    r = rounds(p, token);
    nc = await connectNats({ url: testNatsUrl(), name: 'webhooks-subscriptions-test', logger });
    jsm = await jetstreamManager(nc);
  });
  afterAll(async () => {
    for (const x of receivers) await x.close();
    await nc?.close();
    await p?.stop();
  });

  const bus = () => eventBus(p.prefix);
  /** The unit's durables on the bus, by name, with their filters. */
  const durables = async () => {
    const found: Record<string, string> = {};
    // A durable removed while the list is read comes as null (the unit removes them as webhooks go).
    for await (const c of jsm.consumers.list(bus().stream) as AsyncIterable<ConsumerInfo | null>)
      if (c?.name.startsWith('webhooks-')) found[c.name] = c.config.filter_subject!;
    return found;
  };
  const receiver = async () => {
    const rx = await startReceiver();
    receivers.push(rx);
    return rx;
  };

  it('takes no event while no webhook wants any; a webhook brings the consumer of its types, and it goes with it', async () => {
    // Events published with no webhook: nothing consumes them.
    await r.revealedRound({}, 'Before any webhook', { Ann: '3' });
    expect(await durables()).toEqual({});

    const rx = await receiver();
    const hook = await r.webhook({ url: rx.url, events: ['story.revealed'] });
    await p.until(async () => Object.keys(await durables()).length > 0);
    expect(await durables()).toEqual({ 'webhooks-story-revealed': `${p.prefix}.story.revealed` });

    const { story } = await r.revealedRound({}, 'Wanted', { Ann: '5' });
    const got = await p.until(async () => rx.received.find((x) => x.body.includes(story)));
    expect(JSON.parse(got.body)).toMatchObject({ type: 'story.revealed', data: { story: { id: story } } });
    // Only the reveal it subscribes to: the stories added and the votes never reached a consumer.
    expect(rx.received.every((x) => JSON.parse(x.body).type === 'story.revealed')).toBe(true);

    // "*" wants every public type; disabling and deleting the webhooks takes their consumers away.
    const all = await r.webhook({ url: rx.url, events: ['*'] });
    await p.until(async () => Object.keys(await durables()).length === publicEventTypes.length);
    expect(Object.keys(await durables()).sort()).toEqual(publicEventTypes.map(durableFor).sort());
    const off = await p.client.patch(`/webhooks/${all.id}`, { token, body: { enabled: false } });
    expect(off.status).toBe(200);
    await p.until(async () => Object.keys(await durables()).length === 1);
    expect(await p.client.delete(`/webhooks/${hook.id}`, { token })).toMatchObject({ status: 200 });
    await p.until(async () => Object.keys(await durables()).length === 0);
  });

  it('takes over from the durable of every event: what it had not handled is delivered, and it is removed', async () => {
    const rx = await receiver();
    const hook = await r.webhook({ url: rx.url, events: ['story.revealed'] });
    await p.until(async () => (await durables())[durableFor('story.revealed')] !== undefined);
    // An earlier version: the unit stopped, its one durable of every event there, behind the stream's end.
    await p.stopWebhooks();
    await jsm.consumers.delete(bus().stream, durableFor('story.revealed'));
    await jsm.consumers.add(bus().stream, {
      durable_name: RETIRED_EVENTS_CONSUMER,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.New,
      filter_subject: `${p.prefix}.>`,
    });
    const { story } = await r.revealedRound({}, 'While it was down', { Ann: '8' });
    // The webhook's last change is later than the reveal: only the retired durable's position brings it.
    await runStatement(
      p.databaseUrl,
      `update webhooks set updated_at = now() + interval '1 hour' where id = $1`,
      [hook.id],
    );
    await p.startWebhooks();

    const got = await p.until(async () => rx.received.find((x) => x.body.includes(story)));
    expect(JSON.parse(got.body)).toMatchObject({ type: 'story.revealed', data: { story: { id: story } } });
    await p.until(async () => (await durables())[RETIRED_EVENTS_CONSUMER] === undefined);
    expect(await durables()).toEqual({ 'webhooks-story-revealed': `${p.prefix}.story.revealed` });
  });
});
