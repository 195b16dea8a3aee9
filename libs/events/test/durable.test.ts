import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { createLogger } from '@pp/logger';
import { startNatsServer, uniqueName } from '@pp/testing';
import {
  connectNats,
  consumerNames,
  ensureDurable,
  ensureStream,
  eventBus,
  resumePosition,
  subjectFor,
  type NatsConnection,
} from '../src/index.ts';

const logger = createLogger({ name: 'durable-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/**
 * Where a durable consumer stands when a unit changes what it takes: a changed filter, durables that
 * take over from a retired one, a consumer that starts at a time. No event the unit still handles may
 * be lost, and none it had acknowledged comes again.
 */
describe('durable consumers: placement and migration', () => {
  let nats: Awaited<ReturnType<typeof startNatsServer>>;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let bus: ReturnType<typeof eventBus>;

  beforeAll(async () => {
    nats = await startNatsServer();
    nc = await connectNats({ url: nats.url, name: 'durable-test', logger });
    jsm = await jetstreamManager(nc);
  });
  beforeEach(async () => {
    bus = eventBus(uniqueName('d').toLowerCase());
    await ensureStream(nc, bus);
  });
  afterAll(async () => {
    await nc.close();
    await nats.destroy();
  });

  /** Publishes `types` in order (the payload is the type and its index); resolves with their stream positions. */
  async function publish(types: string[]) {
    const js = jetstream(nc);
    const seqs: number[] = [];
    for (const [i, type] of types.entries())
      seqs.push((await js.publish(subjectFor(bus, type), `${type}#${i}`)).seq);
    return seqs;
  }

  /** Takes `count` messages from a durable (waiting at most 2 s for each), acknowledging the first `ack`. */
  async function take(durable: string, count: number, ack = count) {
    const consumer = await jetstream(nc).consumers.get(bus.stream, durable);
    const got: string[] = [];
    for (let i = 0; i < count; i++) {
      const msg = await consumer.next({ expires: 2_000 });
      if (!msg) break;
      got.push(msg.string());
      // Acknowledged and confirmed: the broker has moved the durable's floor before the next look at it
      // (a plain ack is applied by the consumer after the broker has answered a flush).
      if (i < ack) await msg.ackAck();
      else msg.nak(60_000); // taken, not acknowledged: comes again only after a minute
    }
    await nc.flush();
    return got;
  }

  /** Everything a durable would still deliver (at most `max`), acknowledged. */
  async function rest(durable: string, max = 50) {
    const consumer = await jetstream(nc).consumers.get(bus.stream, durable);
    const got: string[] = [];
    for (let i = 0; i < max; i++) {
      const msg = await consumer.next({ expires: 1_000 });
      if (!msg) break;
      got.push(msg.string());
      msg.ack();
    }
    return got;
  }

  it('narrows the filter of an existing durable in place: its position and unacknowledged messages stay', async () => {
    await publish(['story.created', 'story.revealed', 'story.created', 'story.revealed', 'story.reset']);
    expect(await ensureDurable(jsm, bus, { durable: 'ai', filterSubject: `${bus.prefix}.story.>` })).toBe(
      'created',
    );
    // The first three taken, the first two acknowledged, the third (story.created#2) not.
    expect(await take('ai', 3, 2)).toEqual(['story.created#0', 'story.revealed#1', 'story.created#2']);
    await publish(['story.revealed', 'story.activated']);

    expect(
      await ensureDurable(jsm, bus, { durable: 'ai', filterSubject: `${bus.prefix}.story.revealed` }, logger),
    ).toBe('refiltered');
    const info = await jsm.consumers.info(bus.stream, 'ai');
    expect(info.config.filter_subject).toBe(`${bus.prefix}.story.revealed`);
    // The reveals after its position, none acknowledged before, none of the other types.
    expect(await rest('ai')).toEqual(['story.revealed#3', 'story.revealed#0']);
    expect(
      await ensureDurable(jsm, bus, { durable: 'ai', filterSubject: `${bus.prefix}.story.revealed` }),
    ).toBe('kept');
  });

  it('starts durables that take over from a retired one where it would go on: nothing lost, nothing acknowledged again', async () => {
    await publish(['vote.cast', 'story.created', 'vote.cast', 'story.created', 'vote.cast']);
    await ensureDurable(jsm, bus, { durable: 'all', filterSubject: `${bus.prefix}.>` });
    // Four taken: three acknowledged, the fourth (story.created#3) taken but not acknowledged.
    expect(await take('all', 4, 3)).toEqual([
      'vote.cast#0',
      'story.created#1',
      'vote.cast#2',
      'story.created#3',
    ]);
    await publish(['story.created', 'vote.cast']);

    for (const type of ['vote.cast', 'story.created'])
      expect(
        await ensureDurable(jsm, bus, {
          durable: `by-${type.replace('.', '-')}`,
          filterSubject: subjectFor(bus, type),
          takesOverFrom: ['all', 'never-was'],
        }),
      ).toBe('created');
    await jsm.consumers.delete(bus.stream, 'all');

    expect(await rest('by-vote-cast')).toEqual(['vote.cast#4', 'vote.cast#1']);
    expect(await rest('by-story-created')).toEqual(['story.created#3', 'story.created#0']);
  });

  it('starts a durable with no predecessor at the given time, else at the stream start', async () => {
    await publish(['story.revealed', 'story.revealed']);
    await new Promise((r) => setTimeout(r, 20));
    const from = new Date();
    await publish(['story.revealed']);
    await ensureDurable(jsm, bus, {
      durable: 'late',
      filterSubject: subjectFor(bus, 'story.revealed'),
      startTime: from,
    });
    await ensureDurable(jsm, bus, { durable: 'whole', filterSubject: subjectFor(bus, 'story.revealed') });
    expect(await rest('late')).toEqual(['story.revealed#0']);
    expect(await rest('whole')).toEqual(['story.revealed#0', 'story.revealed#1', 'story.revealed#0']);
  });

  it('goes on right after what a durable acknowledged, or where it stands when it took nothing yet', async () => {
    const seqs = await publish(['a.x', 'b.y', 'a.x', 'b.y']);
    await jsm.consumers.add(bus.stream, {
      durable_name: 'fresh',
      ack_policy: AckPolicy.Explicit,
      filter_subject: subjectFor(bus, 'b.y'),
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: seqs[3]!,
    });
    expect(resumePosition(await jsm.consumers.info(bus.stream, 'fresh'))).toBe(seqs[3]);
    await jsm.consumers.add(bus.stream, {
      durable_name: 'one',
      ack_policy: AckPolicy.Explicit,
      filter_subject: subjectFor(bus, 'b.y'),
    });
    await take('one', 1, 0); // taken, not acknowledged
    expect(resumePosition(await jsm.consumers.info(bus.stream, 'one'))).toBe(1);
    await jsm.consumers.add(bus.stream, {
      durable_name: 'two',
      ack_policy: AckPolicy.Explicit,
      filter_subject: subjectFor(bus, 'b.y'),
    });
    await take('two', 1);
    expect(resumePosition(await jsm.consumers.info(bus.stream, 'two'))).toBe(seqs[1]! + 1);
  });

  it("names a stream's consumers, and refuses to name those of a stream that is not there", async () => {
    expect(await consumerNames(nc, bus.stream)).toEqual(new Set());
    for (const durable of ['first', 'second'])
      await jsm.consumers.add(bus.stream, { durable_name: durable, ack_policy: AckPolicy.Explicit });
    expect(await consumerNames(nc, bus.stream)).toEqual(new Set(['first', 'second']));
    await jsm.consumers.delete(bus.stream, 'first');
    expect(await consumerNames(nc, bus.stream)).toEqual(new Set(['second']));
    await expect(consumerNames(nc, `${bus.stream}_none`)).rejects.toThrow(/stream not found/);
  });
});
