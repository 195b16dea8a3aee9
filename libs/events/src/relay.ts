import type { MikroORM, PostgreSqlConnection } from '@mikro-orm/postgresql';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { atMost } from '@pp/async';
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@pp/logger';
import { gauge, counter } from '@pp/http';
import { inProducerSpan, outsideTrace } from '@pp/telemetry';
import { defaultBus, subjectFor, type EventBus } from './bus.ts';

export interface OutboxRelayOptions {
  orm: MikroORM;
  nc: NatsConnection;
  logger: Logger;
  bus?: EventBus;
  batchSize?: number;
  /** How often to look for events when nobody kicks the relay. */
  intervalMs?: number;
  /** Rows published (and deleted) before the relay vacuums the outbox itself. */
  vacuumEvery?: number;
  /**
   * The SQL function that claims a batch: `outbox_claim` (see migration.ts), or a unit's own built on
   * it, which returns the same columns and may bring an event's data up to date as it leaves.
   */
  claimFunction?: string;
}

export interface OutboxRelay {
  /** Publish what is pending (call after a commit): once the current turn of the event loop is over. */
  kick(): void;
  /**
   * Publishes what is pending now and waits until it has gone out (or `timeoutMs` has passed, when the
   * broker cannot take it: the events stay in the outbox and go out later). For an answer that must
   * not reach the client before its event reaches the other units.
   */
  flush(timeoutMs?: number): Promise<void>;
  /** Publishes until nothing is pending (or the timeout passes); resolves with how many were published. */
  drain(timeoutMs?: number): Promise<number>;
  backlog(): Promise<number>;
  stop(): Promise<void>;
}

const backlogGauge = gauge('outbox_backlog', 'Events in the outbox not yet published');
const ageGauge = gauge(
  'outbox_oldest_age_seconds',
  'Age of the oldest event in the outbox not yet published',
);
const publishedCounter = counter('outbox_published_total', 'Events published by the outbox relay', ['type']);

/** How long a publish waits for JetStream's acknowledgement before it gives up. */
const PUBLISH_TIMEOUT_MS = 3_000;
/**
 * How long a claim's transaction may sit idle (while its batch is published) before the server ends it:
 * far longer than a batch's publishes, which go out together and each give up after PUBLISH_TIMEOUT_MS.
 */
const CLAIM_HELD_AT_MOST_MS = 5 * PUBLISH_TIMEOUT_MS;

interface Row {
  id: string;
  type: string;
  payload: unknown;
  /** As text: the exact time (microseconds), for a row that goes back. */
  created_at: string;
  /** Its place among the rows written at the same time (a row that goes back keeps it). */
  seq: string;
  attempts: number;
  /** The trace of the request that wrote the event (sent on in the message's headers). */
  traceparent: string | null;
}

/**
 * Publishes one row: with its event id for the broker's deduplication, and, when the row kept a
 * trace, as a producer span of that trace whose context the message's headers carry.
 */
function publishRow(js: JetStreamClient, bus: EventBus, row: Row) {
  const subject = subjectFor(bus, row.type, (row.payload as { data?: unknown } | null)?.data);
  const send = (trace: Record<string, string>) => {
    const h = natsHeaders();
    h.set('Nats-Msg-Id', row.id);
    for (const key in trace) h.set(key, trace[key]!);
    return js.publish(subject, JSON.stringify(row.payload), { msgID: row.id, headers: h });
  };
  // Without tracing no row keeps a trace: nothing more than the publish.
  if (!row.traceparent) return send({});
  const attributes = {
    'messaging.system': 'nats',
    'messaging.destination.name': subject,
    'messaging.message.id': row.id,
  };
  return inProducerSpan(`publish ${row.type}`, row.traceparent, attributes, send);
}

/**
 * Publishes outbox rows to JetStream with Nats-Msg-Id = event id, in commit order. The replicas of a
 * unit each run a relay; their claims take turns (the outbox's lock, see migration.ts), so the stream
 * holds the events in the order they were written whichever replica publishes them. When NATS is down
 * the rows stay and are published once it returns; the broker's dedup window and the consumers'
 * processed-events table make a publish repeated after a crash harmless.
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const bus = options.bus ?? defaultBus;
  const js = jetstream(options.nc, { timeout: PUBLISH_TIMEOUT_MS });
  const batchSize = options.batchSize ?? 100;
  const intervalMs = options.intervalMs ?? 1_000;
  let stopped = false;
  let running: Promise<number> | undefined;
  let again = false;
  let failures = 0;
  const vacuumEvery = options.vacuumEvery ?? 5_000;
  let deletedSinceVacuum = 0;
  let vacuuming: Promise<void> | undefined;

  /**
   * One claim of the outbox, in one round trip: the transaction begins and the oldest pending rows are
   * taken in turn with the other replicas' claims, and deleted, and come back in the order they
   * were written (`outbox_claim`, whose statement each connection plans once; see migration.ts). They
   * are published while the transaction holds them, and the commit lets them go. A row JetStream did
   * not take goes back as it was, saying how often it was tried and why not; the others still leave,
   * so one row that cannot be published holds up no other. The commit does not wait for the disk: the
   * rows it deletes are published already, and were it lost in a crash they would only be published
   * again (which the broker's deduplication and the consumers' processed events make harmless, as for
   * a crash before the commit). The claim holds the outbox's lock until that commit, and another
   * replica's claim waits for it: a relay that stops answering in the middle (a process frozen, a
   * network cut) has its session ended by the server after `CLAIM_HELD_AT_MOST_MS`, which gives the rows
   * and the lock back, so the other replicas go on publishing; a claim waits for the lock that long
   * (beyond the units' usual limit on a lock wait).
   */
  const claimFunction = options.claimFunction ?? 'outbox_claim';
  if (!/^[a-z_][a-z0-9_]*$/.test(claimFunction)) throw new Error(`not a function name: ${claimFunction}`);
  const claim = `begin;
    set local synchronous_commit = off;
    set local idle_in_transaction_session_timeout = ${CLAIM_HELD_AT_MOST_MS};
    set local lock_timeout = ${CLAIM_HELD_AT_MOST_MS};
    select * from ${claimFunction}(${Math.max(1, Math.floor(batchSize))})`;
  async function publishBatch(): Promise<number> {
    const pool = await (options.orm.em.getConnection() as PostgreSqlConnection).getNativeClient();
    const client = await pool.connect();
    let broken: Error | undefined;
    let published: number;
    let error: unknown;
    try {
      const results = (await client.query(claim)) as unknown as Array<{ rows: Row[] }>;
      const rows = results.at(-1)!.rows;
      // Published together (the connection keeps their order).
      const acks = await Promise.allSettled(rows.map((row) => publishRow(js, bus, row)));
      const done = rows.filter((_, i) => acks[i]!.status === 'fulfilled');
      const failed = rows.filter((_, i) => acks[i]!.status === 'rejected');
      const reason = (acks.find((a) => a.status === 'rejected') as PromiseRejectedResult | undefined)?.reason;
      if (failed.length) {
        const message = reason instanceof Error ? reason.message : String(reason);
        await client.query(
          `insert into outbox (id, type, payload, created_at, seq, attempts, last_error, traceparent)
           select id, type, payload, created_at, seq, attempts + 1, $1, traceparent
             from jsonb_populate_recordset(null::outbox, $2::jsonb)`,
          [message.slice(0, 500), JSON.stringify(failed)],
        );
      }
      await client.query('commit');
      for (const row of done) publishedCounter.inc({ type: row.type });
      deletedSinceVacuum += done.length;
      published = done.length;
      error = done.length === 0 ? reason : undefined;
    } catch (err) {
      await client.query('rollback').catch((e: Error) => {
        broken = e;
      });
      throw err;
    } finally {
      client.release(broken);
    }
    if (error !== undefined) throw error;
    return published;
  }

  /**
   * A queue table leaves a dead row per event: the relay vacuums it every few thousand events rather
   * than count on autovacuum keeping up (or being on), so claims and the backlog count stay cheap.
   */
  function vacuumIfDue() {
    if (deletedSinceVacuum < vacuumEvery || vacuuming || stopped) return;
    deletedSinceVacuum = 0;
    vacuuming = options.orm.em
      .fork()
      .getConnection()
      .execute('vacuum (skip_locked) outbox')
      .then(
        () => undefined,
        (err: unknown) => options.logger.warn({ err }, 'could not vacuum the outbox'),
      )
      .finally(() => {
        vacuuming = undefined;
      });
  }

  async function run(): Promise<number> {
    let total = 0;
    do {
      again = false;
      for (;;) {
        const n = await publishBatch();
        total += n;
        if (n < batchSize) break;
      }
    } while (again && !stopped);
    vacuumIfDue();
    return total;
  }

  function trigger(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    // Kicked after a request's commit, the relay's work is still no part of that request's trace.
    running = outsideTrace(run)
      .then((n) => {
        failures = 0;
        return n;
      })
      .catch((err) => {
        failures++;
        if (failures === 1 || failures % 20 === 0)
          options.logger.warn({ err, failures }, 'outbox relay could not publish, will retry');
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  /** How many events wait, and how long the oldest has (0 when none does). */
  async function pending(): Promise<{ n: number; age: number }> {
    const rows = (await options.orm.em
      .fork()
      .getConnection()
      .execute(
        `select count(*)::int as n, coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as age from outbox`,
      )) as Array<{ n: number; age: number }>;
    return rows[0] ?? { n: 0, age: 0 };
  }
  const backlog = async () => (await pending()).n;

  // Every interval, the backlog is counted (for the gauges), and claimed only when there is one: an
  // idle unit's tick is one read, not a claim's transaction. What a commit kicks goes out right after
  // its turn; the tick takes what a kick missed (a row that went back after a failed publish, a
  // process that ended before its relay ran). When the count fails, the claim is tried all the same.
  const timer = setInterval(() => {
    void pending().then(
      ({ n, age }) => {
        backlogGauge.set(n);
        ageGauge.set(age);
        if (n > 0) void trigger();
      },
      () => void trigger(),
    );
  }, intervalMs);
  timer.unref();
  void trigger();

  // A commit's kick runs once the current turn of the event loop is over: the request that committed
  // writes its answer before the claim's statement goes out, and the kicks of the commits of one turn
  // share one claim.
  let kicked: NodeJS.Immediate | undefined;
  const kick = () => {
    kicked ??= setImmediate(() => {
      kicked = undefined;
      void trigger();
    });
  };

  return {
    kick,
    flush: async (timeoutMs = 1_000) => {
      await atMost(timeoutMs, trigger(), 0);
    },
    drain: async (timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      let total = 0;
      for (;;) {
        const n = await trigger();
        total += n;
        if (n === 0 && (await backlog()) === 0) return total;
        if (Date.now() > deadline) throw new Error('outbox did not drain in time');
        if (n === 0) await new Promise((r) => setTimeout(r, 50));
      }
    },
    backlog,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      // A kick still waiting for its turn goes out now, as it would have had it run at once.
      if (kicked) {
        clearImmediate(kicked);
        kicked = undefined;
        await trigger();
      }
      await running;
      await vacuuming;
    },
  };
}
