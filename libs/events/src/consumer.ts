import type { MikroORM, EntityManager } from '@mikro-orm/postgresql';
import { jetstream, jetstreamManager, type JsMsg } from '@nats-io/jetstream';
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
import { defaultBus, deadLetterSubjectFor, typeOfSubject, type EventBus } from './bus.ts';
import { ensureDurable, type DurablePlacement } from './durable.ts';
import { whenJetStreamAnswers } from './nats.ts';

export type EventHandler<T extends EventType> = (
  event: EventEnvelope<EventData<T>>,
  em: EntityManager,
) => Promise<void>;
export type EventHandlers = { [T in EventType]?: EventHandler<T> };

export interface ConsumerOptions extends DurablePlacement {
  nc: NatsConnection;
  orm: MikroORM;
  logger: Logger;
  /**
   * Durable name, shared by every replica of the service (each event is handled once per service).
   * Its subject filter (`filterSubject`) names only what the handlers take (one type, or a family
   * the unit handles whole): a changed filter is applied to the existing durable (see ensureDurable).
   */
  durable: string;
  handlers: EventHandlers;
  bus?: EventBus;
  concurrency?: number;
  /** Deliveries before a failing message goes to the dead-letter subject (outages of a dependency do not count). */
  maxDeliver?: number;
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

type JetStream = ReturnType<typeof jetstream>;
type Messages = Awaited<ReturnType<Awaited<ReturnType<JetStream['consumers']['get']>>['consume']>>;
type ReadEvent = EventEnvelope<EventData<EventType>>;

/** What the parts of one running consumer share: its options with their defaults, and the broker. */
interface Consumer {
  options: ConsumerOptions;
  bus: EventBus;
  js: JetStream;
  maxDeliver: number;
  concurrency: number;
  backoff: (deliveryCount: number) => number;
  acks: Acks;
  slots: Slots;
}

/**
 * A durable pull consumer: bounded concurrency; each message handled in one transaction together with
 * its processed-events row (so a redelivery is skipped); ack on success, nak with delay on a passing
 * failure, term plus a dead-letter copy for a message that cannot be read (not an event, or data
 * its contract refuses) or one that keeps failing.
 *
 * In parts: the durable on the broker (`addDurable`); the loop that pulls messages and hands each to a
 * slot (`pullLoop`), or gathers a turn's messages into a batch (`Gatherer`); before handling, reading
 * the event (`readEvent`); handling it (`handleOne`, `handleBatch`), with its processed-events row
 * (`handleOnce`); after, the ack (`Acks`), or the retry or dead letter of a failure (`settleFailure`).
 */
export async function startConsumer(options: ConsumerOptions): Promise<RunningConsumer> {
  if (options.batch && !options.idempotent)
    throw new Error(`${options.durable}: only an idempotent consumer can handle events in batches`);
  const bus = options.bus ?? defaultBus;
  await addDurable(options, bus);
  const concurrency = options.concurrency ?? 8;
  const consumer: Consumer = {
    options,
    bus,
    js: jetstream(options.nc),
    maxDeliver: options.maxDeliver ?? 10,
    concurrency,
    backoff: options.backoffMs ?? defaultBackoff,
    acks: new Acks(),
    slots: new Slots(concurrency),
  };
  const gatherer = options.batch ? new Gatherer(consumer) : undefined;
  const loop = pullLoop(consumer, gatherer);
  return {
    stop: async () => {
      await loop.stop();
      await gatherer?.flushing;
      await consumer.slots.drained();
      consumer.acks.flush();
    },
  };
}

/**
 * The durable consumer on the broker, shared by every replica of the unit: placed without losing
 * events (a changed filter applied in place, a takeover where retired durables stood).
 */
async function addDurable(options: ConsumerOptions, bus: EventBus) {
  // Replicas of the unit make the same durable consumer together, on a stream a cluster may just have
  // made: a placement that times out (or meets a group still electing its leader) is tried again.
  const jsm = await whenJetStreamAnswers(() => jetstreamManager(options.nc));
  await whenJetStreamAnswers(() => ensureDurable(jsm, bus, options, options.logger));
}

// ---- the loop: messages in, each to a slot (or gathered into batches) -------------------------------

/**
 * Pulls the durable's messages until stopped, resubscribing after an interruption; a message waits
 * for a free slot (or is gathered into a batch) before the next is taken.
 */
function pullLoop(consumer: Consumer, gatherer: Gatherer | undefined) {
  const { options, bus, js, slots } = consumer;
  let stopped = false;
  let messages: Messages | undefined;
  const done = (async () => {
    while (!stopped) {
      try {
        const durable = await js.consumers.get(bus.stream, options.durable);
        if (stopped) break;
        // Pulled in batches of at least 64 however few are handled at once: every pull is a request
        // to the broker, and a consumer that handles one message at a time would pull every other one.
        messages = await durable.consume({ max_messages: Math.max(64, consumer.concurrency * 2) });
        // Stopped while subscribing: stop() found nothing to close yet.
        if (stopped) {
          await messages.close();
          break;
        }
        for await (const msg of messages) {
          lag.set({ consumer: options.durable }, msg.info.pending);
          if (gatherer) {
            await gatherer.gather(msg);
            continue;
          }
          await slots.take();
          void handleMessage(consumer, msg)
            .catch((err) => {
              options.logger.error({ err }, 'consumer failed to settle a message');
              msg.nak(consumer.backoff(msg.info.deliveryCount));
            })
            .finally(() => slots.release());
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
      await done;
    },
  };
}

/** At most `size` messages handled at once: a message waits for a slot before the next is pulled. */
class Slots {
  private inFlight = 0;
  private readonly waiters: Array<() => void> = [];
  private readonly size: number;
  constructor(size: number) {
    this.size = size;
  }

  async take(): Promise<void> {
    while (this.inFlight >= this.size) await new Promise<void>((r) => this.waiters.push(r));
    this.inFlight++;
  }

  release() {
    this.inFlight--;
    this.waiters.shift()?.();
  }

  /** Resolves once every slot is free (what was in flight has been settled). */
  async drained(): Promise<void> {
    while (this.inFlight > 0) await new Promise<void>((r) => this.waiters.push(r));
  }
}

/**
 * Batches: the messages of one turn of the event loop (at most the batch's size) are handled together;
 * while every slot is busy, the loop waits before taking more.
 */
class Gatherer {
  private readonly gathered: JsMsg[] = [];
  private readonly size: number;
  /** The hand-over of the current turn's messages to slots, once the turn ends. */
  flushing: Promise<void> | undefined;

  private readonly consumer: Consumer;
  constructor(consumer: Consumer) {
    this.consumer = consumer;
    this.size = consumer.options.batch?.size ?? 64;
  }

  async gather(msg: JsMsg) {
    this.gathered.push(msg);
    if (this.gathered.length === 1)
      this.flushing = new Promise<void>((resolve) => setImmediate(() => void this.flush().then(resolve)));
    if (this.gathered.length >= this.size * this.consumer.concurrency) await this.flushing;
  }

  private async flush() {
    while (this.gathered.length > 0) {
      await this.consumer.slots.take();
      this.settle(this.gathered.splice(0, this.size));
    }
  }

  private settle(msgs: JsMsg[]) {
    const { options, backoff, slots } = this.consumer;
    void handleBatch(this.consumer, msgs)
      .catch((err) => {
        options.logger.error({ err }, 'consumer failed to settle a batch');
        for (const msg of msgs) msg.nak(backoff(msg.info.deliveryCount));
      })
      .finally(() => slots.release());
  }
}

// ---- before: the event in a message --------------------------------------------------------------

/**
 * The event in the message, checked against its contract; undefined when there is nothing to handle
 * (the message is dead-lettered, or acknowledged because this consumer takes no event of its type).
 */
async function readEvent(consumer: Consumer, msg: JsMsg): Promise<ReadEvent | undefined> {
  const { options, bus, acks } = consumer;
  // A consumer of the whole bus sees every event: the types it does not take are let go unread.
  if (!options.handlers[typeOfSubject(bus, msg.subject) as EventType]) {
    acks.ack(msg);
    return undefined;
  }
  let envelope: EventEnvelope;
  try {
    envelope = eventEnvelopeSchema.parse(JSON.parse(new TextDecoder().decode(msg.data))) as EventEnvelope;
  } catch {
    await deadLetter(consumer, msg, 'unparseable', 'not a valid event envelope');
    return undefined;
  }
  if (!options.handlers[envelope.type as EventType]) {
    acks.ack(msg);
    return undefined;
  }
  const data = eventSchemas[envelope.type as EventType].safeParse(envelope.data);
  if (!data.success) {
    await deadLetter(consumer, msg, envelope.type, `invalid ${envelope.type} data: ${data.error.message}`);
    return undefined;
  }
  return { ...envelope, data: data.data } as ReadEvent;
}

// ---- during: handling one event, or a batch -------------------------------------------------------

async function handleMessage(consumer: Consumer, msg: JsMsg): Promise<void> {
  const event = await readEvent(consumer, msg);
  if (event) await handleOne(consumer, msg, event);
}

async function handleOne(consumer: Consumer, msg: JsMsg, event: ReadEvent): Promise<void> {
  const { options } = consumer;
  const handler = options.handlers[event.type as EventType] as EventHandler<EventType>;
  try {
    await traced(
      consumer,
      [msg],
      () => event.type,
      () =>
        runWithContext({ correlationId: event.correlation_id ?? event.id }, () =>
          options.idempotent ? handler(event, options.orm.em.fork()) : handleOnce(options, event, handler),
        ),
    );
    consumer.acks.ack(msg);
  } catch (err) {
    await settleFailure(consumer, msg, event, err);
  }
}

/**
 * The readable events of a batch handled in one call; when that fails for another reason than a
 * dependency being down, each event is handled alone, so one bad event cannot hold back the others.
 */
async function handleBatch(consumer: Consumer, msgs: JsMsg[]): Promise<void> {
  const { options } = consumer;
  const ready: Array<{ msg: JsMsg; event: ReadEvent }> = [];
  for (const msg of msgs) {
    const event = await readEvent(consumer, msg);
    if (event) ready.push({ msg, event });
  }
  if (ready.length === 0) return;
  try {
    await traced(
      consumer,
      ready.map((r) => r.msg),
      () => [...new Set(ready.map((r) => r.event.type))].join(','),
      () =>
        options.batch!.handle(
          ready.map((r) => r.event),
          options.orm.em.fork(),
        ),
    );
    for (const r of ready) consumer.acks.ack(r.msg);
  } catch (err) {
    if (dependencyUnavailable(err)) {
      for (const r of ready) await settleFailure(consumer, r.msg, r.event, err);
      return;
    }
    for (const r of ready) await handleOne(consumer, r.msg, r.event);
  }
}

/** The handler and the processed-events row in one transaction: a redelivered event is skipped. */
function handleOnce(options: ConsumerOptions, event: ReadEvent, handler: EventHandler<EventType>) {
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

/** The span of handling messages, in the trace of the request that caused the (first) event. */
function traced<T>(consumer: Consumer, msgs: JsMsg[], types: () => string, fn: () => Promise<T>) {
  const { durable } = consumer.options;
  return !tracingOn()
    ? fn()
    : inConsumerSpan(
        `${durable} process ${types()}`,
        msgs.map((m) => m.headers),
        {
          'messaging.system': 'nats',
          'messaging.consumer.group.name': durable,
          'messaging.batch.message_count': msgs.length,
        },
        fn,
      );
}

// ---- after: the ack, or a failure's retry or dead letter -----------------------------------------

/**
 * Acks of the messages handled in one turn of the event loop leave together (one socket write for
 * a burst, not one each): they are sent at the end of the turn, a few microseconds later.
 */
class Acks {
  private readonly toAck: JsMsg[] = [];

  ack(msg: JsMsg) {
    if (this.toAck.push(msg) === 1) setImmediate(() => this.flush());
  }

  flush() {
    for (const msg of this.toAck.splice(0)) msg.ack();
  }
}

/** A message whose handling failed: retried later, or dead-lettered once it has failed too often. */
async function settleFailure(consumer: Consumer, msg: JsMsg, event: EventEnvelope, err: unknown) {
  const { options, backoff } = consumer;
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
  if (deliveries >= consumer.maxDeliver) {
    options.logger.error(
      { err, event_id: event.id, type: event.type, deliveries },
      'event handling failed for good',
    );
    await deadLetter(consumer, msg, event.type, err instanceof Error ? err.message : String(err));
    return;
  }
  options.logger.warn(
    { err, event_id: event.id, type: event.type, deliveries },
    'event handling failed, will retry',
  );
  redeliveries.inc({ consumer: options.durable });
  msg.nak(backoff(deliveries));
}

/** A copy of the message to the dead-letter subject, with the reason; the message itself is let go. */
async function deadLetter(consumer: Consumer, msg: JsMsg, type: string, reason: string) {
  const { options, bus, js } = consumer;
  const h = natsHeaders();
  h.set('Pp-Dead-Letter-Reason', reason.slice(0, 500));
  h.set('Pp-Original-Subject', msg.subject);
  await js.publish(deadLetterSubjectFor(bus, options.durable, type), msg.data, { headers: h });
  deadLetters.inc({ consumer: options.durable });
  msg.term(reason.slice(0, 200));
}
