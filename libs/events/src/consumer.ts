import type { MikroORM, EntityManager } from '@mikro-orm/postgresql';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JsMsg } from '@nats-io/jetstream';
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import {
  eventEnvelopeSchema,
  eventSchemas,
  type EventData,
  type EventEnvelope,
  type EventType,
} from '@pp/contracts';
import { runWithContext, type Logger } from '@pp/logger';
import { isDatabaseUnavailable } from '@pp/db';
import { counter, gauge, ServiceUnavailableError } from '@pp/http';
import { inConsumerSpan, tracingOn } from '@pp/telemetry';
import { defaultBus, deadLetterSubjectFor, type EventBus } from './bus.ts';
import { whenJetStreamAnswers } from './nats.ts';

export type EventHandler<T extends EventType> = (
  event: EventEnvelope<EventData<T>>,
  em: EntityManager,
) => Promise<void>;
export type EventHandlers = { [T in EventType]?: EventHandler<T> };

export interface ConsumerOptions {
  nc: NatsConnection;
  orm: MikroORM;
  logger: Logger;
  /** Durable name, shared by every replica of the service (each event is handled once per service). */
  durable: string;
  /** One subject filter (NATS 2.9 takes one per consumer), e.g. `pp.>` or `pp.story.>`. */
  filterSubject: string;
  handlers: EventHandlers;
  bus?: EventBus;
  concurrency?: number;
  /** Deliveries before a failing message goes to the dead-letter subject (outages of a dependency do not count). */
  maxDeliver?: number;
  ackWaitMs?: number;
  /**
   * The handlers are idempotent by themselves (an insert ... on conflict do nothing, a check before
   * acting): they run on a fresh entity manager without the processed-events row and its transaction.
   */
  idempotent?: boolean;
  /** Delay before the n-th redelivery after a passing failure. */
  backoffMs?: (deliveryCount: number) => number;
  /**
   * The events that arrive together (at most `size`, default 64) handled in one call rather than one by
   * one: a burst becomes one statement. Idempotent consumers only. When a batch fails for another
   * reason than a dependency being down, its events are handled one by one with `handlers`, so one bad
   * event cannot hold back the others.
   */
  batch?: { handle: (events: EventEnvelope[], em: EntityManager) => Promise<void>; size?: number };
}

/**
 * The handlers and batch of a consumer that handles the events of `types` the same way alone or
 * together: one event is a batch of one (so the one-by-one fallback after a failed batch runs the
 * same code as the batch).
 */
export function inBatches<T extends EventType>(
  types: readonly T[],
  handle: (events: Array<EventEnvelope<EventData<T>>>, em: EntityManager) => Promise<void>,
): Pick<ConsumerOptions, 'handlers' | 'batch'> {
  const one = (event: EventEnvelope<EventData<T>>, em: EntityManager) => handle([event], em);
  return {
    handlers: Object.fromEntries(types.map((type) => [type, one])) as EventHandlers,
    batch: { handle: handle as (events: EventEnvelope[], em: EntityManager) => Promise<void> },
  };
}

export interface RunningConsumer {
  stop(): Promise<void>;
}

const redeliveries = counter('consumer_redeliveries_total', 'Messages handed back for redelivery', [
  'consumer',
]);
const deadLetters = counter('consumer_dead_letters_total', 'Messages sent to the dead-letter subject', [
  'consumer',
]);
const lag = gauge('consumer_lag', 'Messages not yet delivered to the consumer', ['consumer']);

/** The database or a service the handler called cannot be reached: retry, however long it takes. */
const dependencyUnavailable = (err: unknown) =>
  err instanceof ServiceUnavailableError || isDatabaseUnavailable(err);

const defaultBackoff = (n: number) => Math.min(30_000, 250 * 2 ** Math.max(0, n - 1));

/**
 * A durable pull consumer: bounded concurrency; each message handled in one transaction together with
 * its processed-events row (so a redelivery is skipped); ack on success, nak with delay on a passing
 * failure, term plus a dead-letter copy for a message that cannot be read (not an event, or data
 * its contract refuses) or one that keeps failing.
 */
export async function startConsumer(options: ConsumerOptions): Promise<RunningConsumer> {
  if (options.batch && !options.idempotent)
    throw new Error(`${options.durable}: only an idempotent consumer can handle events in batches`);
  const bus = options.bus ?? defaultBus;
  const maxDeliver = options.maxDeliver ?? 10;
  const concurrency = options.concurrency ?? 8;
  const backoff = options.backoffMs ?? defaultBackoff;
  // Replicas of the unit make the same durable consumer together, on a stream a cluster may just have
  // made: a creation that times out (or meets a group still electing its leader) is tried again.
  const jsm = await whenJetStreamAnswers(() => jetstreamManager(options.nc));
  await whenJetStreamAnswers(() =>
    jsm.consumers.add(bus.stream, {
      durable_name: options.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: options.filterSubject,
      // No broker-side limit: the consumer decides (a dependency outage is retried for as long as it lasts).
      max_deliver: -1,
      ack_wait: (options.ackWaitMs ?? 30_000) * 1e6,
      max_ack_pending: 1_000,
    }),
  );
  const js = jetstream(options.nc);
  let stopped = false;
  let inFlight = 0;
  const waiters: Array<() => void> = [];
  let messages: Awaited<ReturnType<Awaited<ReturnType<typeof js.consumers.get>>['consume']>> | undefined;

  // Acks of the messages handled in one turn of the event loop leave together (one socket write for
  // a burst, not one each): they are sent at the end of the turn, a few microseconds later.
  const toAck: JsMsg[] = [];
  const flushAcks = () => {
    for (const msg of toAck.splice(0)) msg.ack();
  };
  const ack = (msg: JsMsg) => {
    if (toAck.push(msg) === 1) setImmediate(flushAcks);
  };

  async function deadLetter(msg: JsMsg, type: string, reason: string) {
    const h = natsHeaders();
    h.set('Pp-Dead-Letter-Reason', reason.slice(0, 500));
    h.set('Pp-Original-Subject', msg.subject);
    await js.publish(deadLetterSubjectFor(bus, options.durable, type), msg.data, { headers: h });
    deadLetters.inc({ consumer: options.durable });
    msg.term(reason.slice(0, 200));
  }

  /** The handler and the processed-events row in one transaction: a redelivered event is skipped. */
  function handleOnce(event: EventEnvelope<EventData<EventType>>, handler: EventHandler<EventType>) {
    return options.orm.em.fork().transactional(async (em) => {
      const inserted = (await em
        .getConnection()
        .execute(
          `insert into processed_events (consumer, event_id, processed_at) values (?, ?, now()) on conflict do nothing`,
          [options.durable, event.id],
          'run',
          em.getTransactionContext(),
        )) as { affectedRows?: number; rowCount?: number };
      if ((inserted.affectedRows ?? inserted.rowCount ?? 1) === 0) return; // already handled
      await handler(event, em);
    });
  }

  /**
   * The event in the message, checked against its contract; undefined when there is nothing to handle
   * (the message is dead-lettered, or acknowledged because this consumer takes no event of its type).
   */
  async function read(msg: JsMsg): Promise<EventEnvelope<EventData<EventType>> | undefined> {
    // A consumer of the whole bus sees every event: the types it does not take are let go unread.
    if (!options.handlers[msg.subject.slice(bus.prefix.length + 1) as EventType]) {
      ack(msg);
      return undefined;
    }
    let envelope: EventEnvelope;
    try {
      envelope = eventEnvelopeSchema.parse(JSON.parse(new TextDecoder().decode(msg.data))) as EventEnvelope;
    } catch {
      await deadLetter(msg, 'unparseable', 'not a valid event envelope');
      return undefined;
    }
    if (!options.handlers[envelope.type as EventType]) {
      ack(msg);
      return undefined;
    }
    const data = eventSchemas[envelope.type as EventType].safeParse(envelope.data);
    if (!data.success) {
      await deadLetter(msg, envelope.type, `invalid ${envelope.type} data: ${data.error.message}`);
      return undefined;
    }
    return { ...envelope, data: data.data } as EventEnvelope<EventData<EventType>>;
  }

  /** A message whose handling failed: retried later, or dead-lettered once it has failed too often. */
  async function failed(msg: JsMsg, event: EventEnvelope, err: unknown) {
    const deliveries = msg.info.deliveryCount;
    if (dependencyUnavailable(err)) {
      // The database or another service is down: not the message's fault, so never a dead letter.
      if (deliveries === 1 || deliveries % 10 === 0)
        options.logger.warn(
          { err, event_id: event.id, type: event.type, deliveries },
          'a dependency is down, will retry',
        );
      redeliveries.inc({ consumer: options.durable });
      msg.nak(backoff(deliveries));
      return;
    }
    if (deliveries >= maxDeliver) {
      options.logger.error(
        { err, event_id: event.id, type: event.type, deliveries },
        'event handling failed for good',
      );
      await deadLetter(msg, event.type, err instanceof Error ? err.message : String(err));
      return;
    }
    options.logger.warn(
      { err, event_id: event.id, type: event.type, deliveries },
      'event handling failed, will retry',
    );
    redeliveries.inc({ consumer: options.durable });
    msg.nak(backoff(deliveries));
  }

  /** The span of handling messages, in the trace of the request that caused the (first) event. */
  const traced = <T>(msgs: JsMsg[], types: () => string, fn: () => Promise<T>) =>
    !tracingOn()
      ? fn()
      : inConsumerSpan(
          `${options.durable} process ${types()}`,
          msgs.map((m) => m.headers),
          {
            'messaging.system': 'nats',
            'messaging.consumer.group.name': options.durable,
            'messaging.batch.message_count': msgs.length,
          },
          fn,
        );

  async function handleOne(msg: JsMsg, event: EventEnvelope<EventData<EventType>>): Promise<void> {
    const handler = options.handlers[event.type as EventType] as EventHandler<EventType>;
    try {
      await traced(
        [msg],
        () => event.type,
        () =>
          runWithContext({ correlationId: event.correlation_id ?? event.id }, () =>
            options.idempotent ? handler(event, options.orm.em.fork()) : handleOnce(event, handler),
          ),
      );
      ack(msg);
    } catch (err) {
      await failed(msg, event, err);
    }
  }

  async function handle(msg: JsMsg): Promise<void> {
    const event = await read(msg);
    if (event) await handleOne(msg, event);
  }

  async function handleBatch(msgs: JsMsg[]): Promise<void> {
    const ready: Array<{ msg: JsMsg; event: EventEnvelope<EventData<EventType>> }> = [];
    for (const msg of msgs) {
      const event = await read(msg);
      if (event) ready.push({ msg, event });
    }
    if (ready.length === 0) return;
    try {
      await traced(
        ready.map((r) => r.msg),
        () => [...new Set(ready.map((r) => r.event.type))].join(','),
        () =>
          options.batch!.handle(
            ready.map((r) => r.event),
            options.orm.em.fork(),
          ),
      );
      for (const r of ready) ack(r.msg);
    } catch (err) {
      if (dependencyUnavailable(err)) {
        for (const r of ready) await failed(r.msg, r.event, err);
        return;
      }
      for (const r of ready) await handleOne(r.msg, r.event);
    }
  }

  async function slot(): Promise<void> {
    while (inFlight >= concurrency) await new Promise<void>((r) => waiters.push(r));
    inFlight++;
  }
  function release() {
    inFlight--;
    waiters.shift()?.();
  }

  // Batches: the messages of one turn of the event loop (at most batchSize) are handled together;
  // while every slot is busy, the loop waits before taking more.
  const batchSize = options.batch?.size ?? 64;
  const gathered: JsMsg[] = [];
  const settleBatch = (msgs: JsMsg[]) =>
    void handleBatch(msgs)
      .catch((err) => {
        options.logger.error({ err }, 'consumer failed to settle a batch');
        for (const msg of msgs) msg.nak(backoff(msg.info.deliveryCount));
      })
      .finally(release);
  async function flushGathered() {
    while (gathered.length > 0) {
      await slot();
      settleBatch(gathered.splice(0, batchSize));
    }
  }
  let flushing: Promise<void> | undefined;
  async function gather(msg: JsMsg) {
    gathered.push(msg);
    if (gathered.length === 1)
      flushing = new Promise<void>((resolve) => setImmediate(() => void flushGathered().then(resolve)));
    if (gathered.length >= batchSize * concurrency) await flushing;
  }

  const loop = (async () => {
    while (!stopped) {
      try {
        const consumer = await js.consumers.get(bus.stream, options.durable);
        if (stopped) break;
        // Pulled in batches of at least 64 however few are handled at once: every pull is a request
        // to the broker, and a consumer that handles one message at a time would pull every other one.
        messages = await consumer.consume({ max_messages: Math.max(64, concurrency * 2) });
        // Stopped while subscribing: stop() found nothing to close yet.
        if (stopped) {
          await messages.close();
          break;
        }
        for await (const msg of messages) {
          lag.set({ consumer: options.durable }, msg.info.pending);
          if (options.batch) {
            await gather(msg);
            continue;
          }
          await slot();
          void handle(msg)
            .catch((err) => {
              options.logger.error({ err }, 'consumer failed to settle a message');
              msg.nak(backoff(msg.info.deliveryCount));
            })
            .finally(release);
        }
      } catch (err) {
        if (stopped) break;
        options.logger.warn({ err, consumer: options.durable }, 'consumer interrupted, resubscribing');
        await new Promise((r) => setTimeout(r, 1_000));
      }
    }
  })();

  return {
    stop: async () => {
      stopped = true;
      await messages?.close();
      await loop;
      await flushing;
      while (inFlight > 0) await new Promise<void>((r) => waiters.push(r));
      flushAcks();
    },
  };
}
