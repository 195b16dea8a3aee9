import type { MikroORM, PostgreSqlConnection } from '@mikro-orm/postgresql';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { ServiceUnavailableError } from '@pp/http';
import { createLogger } from '@pp/logger';
import { createDatabase, Migration, type Database, type EntityManager } from '@pp/db';
import { createTestDatabase, startNatsServer, uniqueName, type TestDatabase, until } from '@pp/testing';
import {
  connectNats,
  ensureStream,
  enqueue,
  eventBus,
  eventEntities,
  eventsMigrations,
  followBus,
  forgetProcessedEvents,
  removeConsumer,
  startConsumer,
  type ConsumerOptions,
  startOutboxRelay,
  subjectFor,
  filterForType,
  type NatsConnection,
} from '../src/index.ts';

const logger = createLogger({ name: 'events-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

class SeenTable extends Migration {
  override async up() {
    this.addSql('create table seen (event_id uuid not null, type text not null)');
  }
}

/** A handler that writes down the event it handled, in the consumer's transaction when there is one. */
const recordSeen = async (event: { id: string; type: string }, em: EntityManager) => {
  await em
    .getConnection()
    .execute('insert into seen values (?, ?)', [event.id, event.type], 'run', em.getTransactionContext());
};

const tokenRevoked = (n: number) => ({ token_id: `t${n}`, user_id: 'u1', kind: 'api' as const });
/** A valid story.reset envelope with the given id, published by hand. */
const storyReset = (id: string) => ({
  id,
  type: 'story.reset',
  version: 1,
  occurred_at: new Date().toISOString(),
  source: 'test',
  correlation_id: null,
  data: {
    session_id: '6b0f7c1e-3a7e-4a53-9d55-1f7c2b8f0a03',
    session_code: 'ABCDEF',
    story: { id: '6b0f7c1e-3a7e-4a53-9d55-1f7c2b8f0a04', title: 'x', status: 'voting', position: 1 },
  },
});

describe('events: outbox relay and consumers', () => {
  let testDb: TestDatabase;
  let db: Database;
  let nats: Awaited<ReturnType<typeof startNatsServer>>;
  let nc: NatsConnection;
  const bus = eventBus(uniqueName('t').toLowerCase());

  const seen = async () =>
    (await db.fork().getConnection().execute('select event_id, type from seen order by event_id')) as Array<{
      event_id: string;
      type: string;
    }>;

  /** The rows waiting in the outbox, with their exact time and what the relay says of them. */
  const outbox = async () =>
    (await db
      .fork()
      .getConnection()
      .execute('select id, created_at::text as created_at, attempts, last_error from outbox')) as Array<{
      id: string;
      created_at: string;
      attempts: number;
      last_error: string | null;
    }>;

  /**
   * `count` token.revoked events written to the outbox in one transaction (numbered from `from`), and
   * the stream's last sequence before them.
   */
  const writeEvents = async (count: number, from: number) => {
    const before = (await (await jetstreamManager(nc)).streams.info(bus.stream)).state.last_seq;
    const em = db.fork();
    const ids = Array.from(
      { length: count },
      (_, n) => enqueue(em, 'token.revoked', tokenRevoked(from + n), { source: 'test' }).id,
    );
    await em.flush();
    return { ids, before };
  };

  /** The ids of the `count` events the stream took after sequence `before`, in its order. */
  const publishedAfter = async (before: number, count: number) => {
    const jsm = await jetstreamManager(nc);
    const ids: string[] = [];
    for (let seq = before + 1; seq <= before + count; seq++)
      ids.push((await jsm.streams.getMessage(bus.stream, { seq }))!.json<{ id: string }>().id);
    return ids;
  };

  /** A consumer on this test's broker, database and bus. */
  const consume = (options: Omit<ConsumerOptions, 'nc' | 'orm' | 'logger' | 'bus'>) =>
    startConsumer({ nc, orm: db.orm as MikroORM, logger, bus, ...options });

  beforeAll(async () => {
    testDb = await createTestDatabase('events');
    db = await createDatabase({
      url: testDb.url,
      entities: eventEntities,
      migrations: [...eventsMigrations, { name: '0001-seen', class: SeenTable }],
      logger,
    });
    nats = await startNatsServer();
    nc = await connectNats({ url: nats.url, name: 'events-test', logger });
    await ensureStream(nc, bus);
  });

  afterAll(async () => {
    await nc.close();
    await nats.destroy();
    await db.close();
    await testDb.drop();
  });

  it('keeps the streams on as many servers as asked, and says why a count the servers cannot keep fails', async () => {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(bus.stream);
    expect(info.config.num_replicas).toBe(1);
    // One server here: three copies need a cluster, and the error names the setting.
    const elsewhere = eventBus(uniqueName('replicas'));
    await expect(ensureStream(nc, elsewhere, { replicas: 3 })).rejects.toThrow(
      new RegExp(
        `could not create the stream ${elsewhere.stream} with 3 replica\\(s\\) \\(EVENTS_REPLICAS\\): .+`,
      ),
    );
    await expect(jsm.streams.info(elsewhere.stream)).rejects.toThrow();
    // A stream kept before is brought to the count asked, which a single server can keep.
    await ensureStream(nc, bus, { replicas: 1 });
    expect((await jsm.streams.info(bus.stream)).config.num_replicas).toBe(1);
    // A stream whose settings were changed is brought back to them (one as it should be is left alone).
    await jsm.streams.update(bus.stream, { ...info.config, duplicate_window: 5 * 1e9 });
    await ensureStream(nc, bus, { replicas: 1 });
    expect((await jsm.streams.info(bus.stream)).config.duplicate_window).toBe(120 * 1e9);
  });

  it('keeps events made while NATS is down and publishes each exactly once when it returns', async () => {
    const consumer = await consume({
      durable: 'once',
      filterSubject: `${bus.prefix}.token.>`,
      handlers: {
        'token.revoked': recordSeen,
      },
    });
    const relay = startOutboxRelay({ orm: db.orm as MikroORM, nc, logger, bus, intervalMs: 100 });

    await nats.stop();
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) {
      const em = db.fork();
      ids.push(enqueue(em, 'token.revoked', tokenRevoked(n), { source: 'test' }).id);
      await em.flush();
    }
    // An answer that waits for its events waits no longer than it said while the broker is away.
    const started = Date.now();
    await relay.flush(300);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await relay.backlog()).toBe(5);
    // Each waiting row says how often it was tried and why it did not leave.
    const waiting = await until(async () => {
      const found = await outbox();
      return found.every((r) => r.attempts > 0 && r.last_error) && found;
    }, 10_000);
    expect(waiting).toHaveLength(5);

    await nats.restart();
    await until(async () => (await relay.backlog()) === 0, 15_000);
    // Once it is back, flush returns when what was pending has gone out.
    const em = db.fork();
    ids.push(enqueue(em, 'token.revoked', tokenRevoked(5), { source: 'test' }).id);
    await em.flush();
    await relay.flush(10_000);
    expect(await relay.backlog()).toBe(0);
    await until(async () => (await seen()).length >= 6, 15_000);
    await new Promise((r) => setTimeout(r, 500)); // room for a duplicate to show up
    const rows = await seen();
    expect(rows.map((r) => r.event_id).sort()).toEqual([...ids].sort());

    await relay.stop();
    await consumer.stop();
  });

  it('keeps a row JetStream refuses as it was, and publishes the rows around it', async () => {
    const consumer = await consume({
      durable: 'around',
      filterSubject: `${bus.prefix}.token.>`,
      handlers: { 'token.revoked': recordSeen },
    });
    const before = new Set((await seen()).map((r) => r.event_id));
    const em = db.fork();
    const first = enqueue(em, 'token.revoked', tokenRevoked(200), { source: 'test' }).id;
    await em.flush();
    // Larger than the server takes in one message (1 MB): a row that cannot leave.
    const [refused] = (await db
      .fork()
      .getConnection()
      .execute(
        `insert into outbox (id, type, payload, created_at, attempts)
         values (gen_random_uuid(), 'token.revoked', jsonb_build_object('pad', repeat('x', 1100000)), clock_timestamp(), 0)
         returning id, created_at::text as created_at`,
      )) as Array<{ id: string; created_at: string }>;
    const em2 = db.fork();
    const second = enqueue(em2, 'token.revoked', tokenRevoked(201), { source: 'test' }).id;
    await em2.flush();
    const relay = startOutboxRelay({ orm: db.orm as MikroORM, nc, logger, bus, intervalMs: 100 });
    try {
      await until(async () => {
        const ids = (await seen()).map((r) => r.event_id).filter((id) => !before.has(id));
        return ids.includes(first) && ids.includes(second);
      }, 30_000);
      const left = await until(async () => {
        const rows = await outbox();
        return rows.length === 1 && rows[0]!.attempts > 0 && rows;
      }, 30_000);
      expect(left[0]).toMatchObject({ id: refused!.id, created_at: refused!.created_at });
      expect(left[0]!.last_error).toBeTruthy();
    } finally {
      await relay.stop();
      await consumer.stop();
      await db.fork().getConnection().execute('delete from outbox');
    }
  }, 70_000);

  it('handles a redelivered event once (the processed-events table, not the dedup window)', async () => {
    const consumer = await consume({
      durable: 'idem',
      filterSubject: `${bus.prefix}.user.>`,
      handlers: {
        'user.created': recordSeen,
      },
    });
    const js = jetstream(nc);
    const event = {
      id: '6b0f7c1e-3a7e-4a53-9d55-1f7c2b8f0a01',
      type: 'user.created',
      version: 1,
      occurred_at: new Date().toISOString(),
      source: 'test',
      correlation_id: null,
      data: { user: { id: 'u9', email: 'a@b.c', name: 'A' } },
    };
    await js.publish(subjectFor(bus, 'user.created'), JSON.stringify(event), { msgID: 'first' });
    await js.publish(subjectFor(bus, 'user.created'), JSON.stringify(event), { msgID: 'second' });
    await until(async () => (await seen()).some((r) => r.type === 'user.created'));
    await new Promise((r) => setTimeout(r, 500));
    expect((await seen()).filter((r) => r.type === 'user.created')).toHaveLength(1);
    await consumer.stop();
  });

  it('sends a poison message and a message that keeps failing to the dead-letter subject', async () => {
    let attempts = 0;
    const consumer = await consume({
      durable: 'poison',
      filterSubject: `${bus.prefix}.story.>`,
      maxDeliver: 3,
      backoffMs: () => 50,
      handlers: {
        'story.reset': async () => {
          attempts++;
          throw new Error('downstream keeps failing');
        },
        'story.created': async () => undefined,
      },
    });
    const js = jetstream(nc);
    await js.publish(subjectFor(bus, 'story.created'), '{"not": "an event"');
    const failing = storyReset('6b0f7c1e-3a7e-4a53-9d55-1f7c2b8f0a02');
    await js.publish(subjectFor(bus, 'story.reset'), JSON.stringify(failing));

    const jsm = await jetstreamManager(nc);
    await until(async () => (await jsm.streams.info(bus.deadLetterStream)).state.messages >= 2);
    const unparseable = await jsm.streams.getMessage(bus.deadLetterStream, {
      last_by_subj: `${bus.deadLetterPrefix}.poison.unparseable`,
    });
    expect(unparseable?.string()).toBe('{"not": "an event"');
    const failed = await jsm.streams.getMessage(bus.deadLetterStream, {
      last_by_subj: `${bus.deadLetterPrefix}.poison.story.reset`,
    });
    expect(failed?.json<{ id: string }>().id).toBe(failing.id);
    expect(failed?.header.get('Pp-Dead-Letter-Reason')).toMatch(/downstream keeps failing/);
    expect(attempts).toBe(3);
    await consumer.stop();
  });

  it('retries a message for as long as a dependency is down, past maxDeliver, and never dead-letters it', async () => {
    let attempts = 0;
    const consumer = await consume({
      durable: 'patient',
      filterSubject: `${bus.prefix}.import.>`,
      maxDeliver: 2,
      backoffMs: () => 20,
      handlers: {
        'import.completed': async () => {
          attempts++;
          if (attempts <= 3) throw new ServiceUnavailableError('the sessions service is down');
          if (attempts <= 5)
            throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        },
      },
    });
    const em = db.fork();
    enqueue(
      em,
      'import.completed',
      {
        session_id: crypto.randomUUID(),
        session_code: 'ABCDEF',
        provider: 'jira',
        connection_id: null,
        story_ids: [],
      },
      { source: 'test' },
    );
    await em.flush();
    const relay = startOutboxRelay({ orm: db.orm as MikroORM, nc, logger, bus, intervalMs: 100 });
    await until(async () => attempts >= 6);
    const jsm = await jetstreamManager(nc);
    const dead = await jsm.streams
      .getMessage(bus.deadLetterStream, { last_by_subj: `${bus.deadLetterPrefix}.patient.import.completed` })
      .catch(() => null);
    expect(dead).toBeNull();
    await new Promise((r) => setTimeout(r, 200)); // handled: no further delivery
    expect(attempts).toBe(6);
    await relay.stop();
    await consumer.stop();
  });

  it('runs an idempotent consumer without a processed-events row', async () => {
    const consumer = await consume({
      durable: 'light',
      filterSubject: `${bus.prefix}.estimates.>`,
      idempotent: true,
      handlers: {
        'estimates.synced': recordSeen,
      },
    });
    const em = db.fork();
    const event = enqueue(
      em,
      'estimates.synced',
      {
        session_id: '6b0f7c1e-3a7e-4a53-9d55-1f7c2b8f0a05',
        session_code: 'ABCDEF',
        synced: 1,
        failed: 0,
        skipped: 0,
      },
      { source: 'test' },
    );
    await em.flush();
    const relay = startOutboxRelay({ orm: db.orm as MikroORM, nc, logger, bus, intervalMs: 100 });
    await until(async () => (await seen()).some((r) => r.event_id === event.id));
    const processed = await db
      .fork()
      .getConnection()
      .execute("select * from processed_events where consumer = 'light'");
    expect(processed).toHaveLength(0);
    await relay.stop();
    await consumer.stop();
  });

  it('handles the events that arrive together in one batch, and a failing one alone so the others go through', async () => {
    const batches: string[][] = [];
    const alone: string[] = [];
    const poison = '6b0f7c1e-3a7e-4a53-9d55-1f7c2b8f0aff';
    const consumer = await consume({
      durable: 'batched',
      filterSubject: `${bus.prefix}.story.>`,
      idempotent: true,
      maxDeliver: 2,
      backoffMs: () => 20,
      handlers: {
        'story.reset': async (event) => {
          alone.push(event.id);
          if (event.id === poison) throw new Error('this one cannot be handled');
        },
      },
      batch: {
        handle: async (events) => {
          batches.push(events.map((e) => e.id));
          if (events.some((e) => e.id === poison)) throw new Error('this one cannot be handled');
        },
      },
    });
    const js = jetstream(nc);
    try {
      // (The stream also holds the story events of the tests before: only this test's are looked at.)
      const good: string[] = Array.from({ length: 20 }, () => crypto.randomUUID());
      await Promise.all(
        good.map((id) => js.publish(subjectFor(bus, 'story.reset'), JSON.stringify(storyReset(id)))),
      );
      await until(async () => good.every((id) => batches.flat().includes(id)));
      expect(batches.filter((b) => b.some((id) => good.includes(id))).length).toBeLessThan(20); // some together
      expect(alone.filter((id) => good.includes(id))).toEqual([]);

      const next = [crypto.randomUUID(), poison, crypto.randomUUID()];
      await Promise.all(
        next.map((id) => js.publish(subjectFor(bus, 'story.reset'), JSON.stringify(storyReset(id)))),
      );
      const jsm = await jetstreamManager(nc);
      await until(async () => {
        const dead = await jsm.streams
          .getMessage(bus.deadLetterStream, { last_by_subj: `${bus.deadLetterPrefix}.batched.story.reset` })
          .catch(() => null);
        return dead?.json<{ id: string }>().id === poison;
      });
      // Each good one is handled once: alone when it shared the failing batch (usually all three arrive
      // together), else in a batch of its own that went through. Nothing is handled again later.
      await new Promise((r) => setTimeout(r, 200));
      for (const id of [next[0]!, next[2]!]) {
        const withPoison = batches.some((b) => b.includes(id) && b.includes(poison));
        const inGoodBatches = batches.filter((b) => b.includes(id) && !b.includes(poison)).length;
        const handledAlone = alone.filter((x) => x === id).length;
        expect({ handledAlone, inGoodBatches }).toEqual(
          withPoison ? { handledAlone: 1, inGoodBatches: 0 } : { handledAlone: 0, inGoodBatches: 1 },
        );
      }
    } finally {
      await consumer.stop();
    }
  });

  it('follows the bus live in the stream order with each position; a consumer of the whole bus lets other types go unread', async () => {
    const js = jetstream(nc);
    const before = await js.publish(
      subjectFor(bus, 'story.reset'),
      JSON.stringify(storyReset(crypto.randomUUID())),
    );
    const fed: Array<{ type: string; id: string; position: number }> = [];
    const errors: string[] = [];
    const feed = await followBus({
      nc,
      bus,
      onEvent: (type, body, position) => {
        fed.push({ type, id: '', position });
        // What the caller throws stops nothing: the next event comes.
        fed.at(-1)!.id = JSON.parse(new TextDecoder().decode(body)).id;
      },
      onError: (err, type) => errors.push(type),
    });
    const handled = new Set<string>();
    const consumer = await consume({
      durable: 'whole-bus',
      filterSubject: `${bus.prefix}.>`,
      idempotent: true,
      handlers: { 'story.reset': async (event) => void handled.add(event.id) },
    });
    try {
      expect(feed.from).toBeGreaterThanOrEqual(before.seq);
      const ids = Array.from({ length: 5 }, () => crypto.randomUUID());
      const acks: Array<{ seq: number }> = [];
      for (const id of ids) {
        acks.push(await js.publish(subjectFor(bus, 'story.reset'), JSON.stringify(storyReset(id))));
        // Not an event, on a subject this consumer takes nothing of: let go unread, not dead-lettered.
        acks.push(await js.publish(subjectFor(bus, 'not.taken'), 'not json'));
      }
      await until(async () => fed.length === 10);
      // Everything published after the feed started, nothing before, in the stream's order.
      expect(fed.map((f) => f.position)).toEqual(acks.map((a) => a.seq));
      expect(fed.filter((f) => f.type === 'story.reset').map((f) => f.id)).toEqual(ids);
      expect(errors).toEqual(Array(5).fill('not.taken'));
      await until(async () => ids.every((id) => handled.has(id)));
      // The consumer has let the others go too: nothing of its is left to deliver or acknowledge.
      await until(async () => {
        const info = await (await jetstreamManager(nc)).consumers.info(bus.stream, 'whole-bus');
        return info.num_pending === 0 && info.num_ack_pending === 0;
      });
      const jsm = await jetstreamManager(nc);
      const dead = await jsm.streams
        .getMessage(bus.deadLetterStream, { last_by_subj: `${bus.deadLetterPrefix}.whole-bus.unparseable` })
        .catch(() => null);
      expect(dead).toBeNull();
    } finally {
      await consumer.stop();
      await feed.stop();
    }
  });

  it('publishes the votes of sessions that reveal by themselves apart: their consumer never receives the others', async () => {
    const vote = (n: number, autoReveal: boolean) => ({
      session_id: '6b0f7c1e-3a7e-4a53-9d55-1f7c2b8f0a03',
      session_code: 'ABCDEF',
      story_id: '6b0f7c1e-3a7e-4a53-9d55-1f7c2b8f0a04',
      participant: { id: n, name: `Voter ${n}` },
      stats: { votes_cast: n, total_participants: 9, all_voted: false },
      auto_reveal: autoReveal,
    });
    const fed: Array<{ type: string; id: string }> = [];
    const feed = await followBus({
      nc,
      bus,
      onEvent: (type, body) => fed.push({ type, id: JSON.parse(new TextDecoder().decode(body)).id }),
      onError: () => undefined,
    });
    const taken = { auto: [] as string[], all: [] as string[] };
    const auto = await consume({
      durable: 'auto-votes',
      filterSubject: subjectFor(bus, 'vote.cast', { auto_reveal: true }),
      idempotent: true,
      handlers: { 'vote.cast': async (event) => void taken.auto.push(event.id) },
    });
    const all = await consume({
      durable: 'all-votes',
      filterSubject: filterForType(bus, 'vote.cast'),
      idempotent: true,
      handlers: { 'vote.cast': async (event) => void taken.all.push(event.id) },
    });
    const relay = startOutboxRelay({ orm: db.orm as MikroORM, nc, logger, bus, intervalMs: 100 });
    try {
      const em = db.fork();
      const events = [false, true, false, false, true].map((autoReveal, n) => ({
        autoReveal,
        id: enqueue(em, 'vote.cast', vote(n + 1, autoReveal), { source: 'test' }).id,
      }));
      await em.flush();
      relay.kick();
      const ids = events.map((e) => e.id);
      const autoIds = events.filter((e) => e.autoReveal).map((e) => e.id);
      await until(async () => taken.all.length === ids.length && fed.length >= ids.length);
      await until(async () => taken.auto.length === autoIds.length);
      expect([...taken.all].sort()).toEqual([...ids].sort());
      expect([...taken.auto].sort()).toEqual([...autoIds].sort());
      // The feed of the whole bus names the type of both, in the order they were written.
      expect(fed.filter((f) => ids.includes(f.id))).toEqual(ids.map((id) => ({ type: 'vote.cast', id })));
      // The qualified consumer was handed nothing but its own: three fewer deliveries, not three let go.
      const jsm = await jetstreamManager(nc);
      const info = await jsm.consumers.info(bus.stream, 'auto-votes');
      expect(info.delivered.consumer_seq).toBe(autoIds.length);
      expect((await jsm.consumers.info(bus.stream, 'all-votes')).delivered.consumer_seq).toBe(ids.length);
      // The last message on each subject is the last event of its kind.
      const lastOn = async (subject: string) => {
        const msg = await jsm.streams.getMessage(bus.stream, { last_by_subj: subject });
        return JSON.parse(new TextDecoder().decode(msg!.data)).id as string;
      };
      expect(await lastOn(`${bus.prefix}.vote.cast.auto`)).toBe(autoIds.at(-1));
      expect(await lastOn(`${bus.prefix}.vote.cast`)).toBe(events.filter((e) => !e.autoReveal).at(-1)!.id);
    } finally {
      await relay.stop();
      await auto.stop();
      await all.stop();
      await feed.stop();
    }
  });

  it('starts a feed after a given place, or at the end when that place is too far behind or beyond it', async () => {
    const js = jetstream(nc);
    const acks = [];
    for (let i = 0; i < 3; i++)
      acks.push(
        await js.publish(subjectFor(bus, 'story.reset'), JSON.stringify(storyReset(crypto.randomUUID()))),
      );
    const end = acks[2]!.seq;
    const fromOf = async (after: number, catchUpAtMost?: number) => {
      const feed = await followBus({
        nc,
        bus,
        after,
        catchUpAtMost,
        onEvent: () => undefined,
        onError: () => undefined,
      });
      await feed.stop();
      return feed.from;
    };
    expect(await fromOf(end - 2, 5)).toBe(end - 2);
    expect(await fromOf(end - 2, 1)).toBe(end);
    expect(await fromOf(end + 100)).toBe(end);
  });

  it('lets published rows go and vacuums the outbox itself once enough of them went', async () => {
    const vacuums = async () => {
      const [stats] = (await db
        .fork()
        .getConnection()
        .execute(
          "select vacuum_count::int as n from pg_stat_user_tables where relname = 'outbox'",
        )) as Array<{
        n: number;
      }>;
      return stats!.n;
    };
    const before = await vacuums();
    const relay = startOutboxRelay({
      orm: db.orm as MikroORM,
      nc,
      logger,
      bus,
      intervalMs: 100,
      vacuumEvery: 10,
    });
    const em = db.fork();
    for (let n = 0; n < 12; n++) enqueue(em, 'token.revoked', tokenRevoked(100 + n), { source: 'test' });
    await em.flush();
    relay.kick();
    await until(async () => (await relay.backlog()) === 0);
    const left = await db.fork().getConnection().execute('select count(*)::int as n from outbox');
    expect(left).toEqual([{ n: 0 }]);
    await until(async () => (await vacuums()) > before);
    await relay.stop();
  });

  it('claims after the turn a commit kicked it in (one claim for the kicks of that turn), and on stop for a kick still waiting', async () => {
    const relay = startOutboxRelay({ orm: db.orm as MikroORM, nc, logger, bus, intervalMs: 60_000 });
    await relay.flush(5_000); // the claim it makes as it starts
    // Each claim takes a connection of the global entity manager's pool, and only a claim does.
    const globalEm = db.orm.em as unknown as { getConnection(...args: unknown[]): unknown };
    const getConnection = globalEm.getConnection;
    let claims = 0;
    globalEm.getConnection = function (this: unknown, ...args: unknown[]) {
      claims++;
      return getConnection.apply(this, args);
    };
    try {
      const em = db.fork();
      for (let n = 0; n < 3; n++) enqueue(em, 'token.revoked', tokenRevoked(300 + n), { source: 'test' });
      await em.flush();
      relay.kick();
      relay.kick();
      relay.kick();
      // Nothing is claimed in the turn that kicked: the request that committed answers first.
      expect(claims).toBe(0);
      await until(async () => (await outbox()).length === 0);
      expect(claims).toBe(1);

      // Stopped in the same turn as its kick, the relay still publishes what the kick was for.
      const next = db.fork();
      enqueue(next, 'token.revoked', tokenRevoked(303), { source: 'test' });
      await next.flush();
      relay.kick();
      await relay.stop();
      expect(await outbox()).toEqual([]);
      expect(claims).toBe(2);
    } finally {
      delete (globalEm as { getConnection?: unknown }).getConnection;
      await relay.stop();
    }
  });

  it('stops a consumer at once after starting it, and retires its durable (nothing to do the second time)', async () => {
    const consumer = await consume({
      durable: 'retired',
      filterSubject: `${bus.prefix}.token.>`,
      handlers: { 'token.revoked': recordSeen },
    });
    await consumer.stop(); // before it has even subscribed: must not wait for messages
    expect(await removeConsumer(nc, bus, 'retired')).toBe(true);
    expect(await removeConsumer(nc, bus, 'retired')).toBe(false);
  });

  it('forgets processed-events rows older than the given time, and only those', async () => {
    const conn = db.fork().getConnection();
    const [old, recent] = [crypto.randomUUID(), crypto.randomUUID()];
    await conn.execute(
      `insert into processed_events (consumer, event_id, processed_at) values
         ('aging', ?, now() - interval '9 days'), ('aging', ?, now())`,
      [old, recent],
    );
    expect(await forgetProcessedEvents(db.orm as MikroORM, new Date(Date.now() - 8 * 24 * 3600_000))).toBe(1);
    const left = await conn.execute("select event_id from processed_events where consumer = 'aging'");
    expect(left).toEqual([{ event_id: recent }]);
  });

  it('refuses to enqueue an event whose data breaks its contract', () => {
    const em = db.fork();
    expect(() => enqueue(em, 'token.revoked', { token_id: 't' } as never, { source: 'test' })).toThrow();
  });

  // Last: the durable consumers of the tests above would get these events too.
  it('publishes the events of one transaction in the order they were written, within one instant too', async () => {
    const { ids, before } = await writeEvents(30, 100);
    // A fast transaction writes its events within one millisecond: the same time for all of them.
    await db
      .fork()
      .getConnection()
      .execute(
        `update outbox set created_at = '2026-01-01T00:00:00Z' where id in (${ids.map(() => '?')})`,
        ids,
      );
    const relay = startOutboxRelay({ orm: db.orm as MikroORM, nc, logger, bus, intervalMs: 50 });
    await relay.drain();
    await relay.stop();
    expect(await publishedAfter(before, ids.length)).toEqual(ids);
  });

  it('publishes in the order the events were written while relays of several replicas claim side by side', async () => {
    const { ids, before } = await writeEvents(400, 200);
    // A backlog (the broker was away, say) that three replicas' relays all start on at once.
    const connections = await Promise.all(
      [1, 2, 3].map((n) => connectNats({ url: nats.url, name: `events-test-replica-${n}`, logger })),
    );
    const relays = connections.map((replicaNc) =>
      startOutboxRelay({ orm: db.orm as MikroORM, nc: replicaNc, logger, bus, batchSize: 25 }),
    );
    for (const relay of relays) relay.kick();
    await Promise.all(relays.map((relay) => relay.drain()));
    await Promise.all(relays.map((relay) => relay.stop()));
    await Promise.all(connections.map((c) => c.close()));
    expect(await publishedAfter(before, ids.length)).toEqual(ids);
  });

  it('waits while another replica’s claim holds the outbox, and publishes in order once that claim is gone', async () => {
    const jsm = await jetstreamManager(nc);
    const { ids, before } = await writeEvents(20, 700);
    // Another replica claims the first five and stops answering (a frozen process) until the server
    // ends its session.
    const pool = await (db.orm.em.getConnection() as PostgreSqlConnection).getNativeClient();
    const frozen = await pool.connect();
    frozen.on('error', () => undefined);
    await frozen.query(`begin; set local idle_in_transaction_session_timeout = '1500ms'`);
    const held = (await frozen.query('select id from outbox_claim(5)')) as { rows: Array<{ id: string }> };
    expect(held.rows.map((r) => r.id)).toEqual(ids.slice(0, 5));
    const relay = startOutboxRelay({ orm: db.orm as MikroORM, nc, logger, bus, intervalMs: 100 });
    await new Promise((r) => setTimeout(r, 800));
    // Nothing went out around the held rows.
    expect((await jsm.streams.info(bus.stream)).state.last_seq).toBe(before);
    await until(
      async () => (await jsm.streams.info(bus.stream)).state.last_seq === before + ids.length,
      10_000,
    );
    await relay.stop();
    frozen.release(true);
    expect(await publishedAfter(before, ids.length)).toEqual(ids);
  });
});
