import { DeliverPolicy, jetstream, jetstreamManager, type ConsumerMessages } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { inConsumerSpan, tracingOn } from '@pp/telemetry';
import { typeOfSubject, type EventBus } from './bus.ts';

/**
 * How often the server of a feed's consumer shows it is there while no event comes. Two missed say the
 * server is gone, so this bounds how long a live room goes without events when a NATS server dies.
 */
export const FEED_HEARTBEAT_MS = 1_000;

/**
 * How long a question to JetStream's API (the stream's place, a new consumer) may take before the feed
 * asks again: while a cluster elects a new leader for the stream, one question can go unanswered.
 */
const FEED_API_TIMEOUT_MS = 2_000;

/** A live feed of the bus: stop it to let go of its consumer. */
export interface BusFeed {
  /** The place in the stream the feed started after: every later event comes to it, in order. */
  from: number;
  stop(): Promise<void>;
}

interface FeedOptions {
  nc: NatsConnection;
  bus: EventBus;
  /** Start after this place; the stream's end when absent (or beyond the end). */
  after?: number;
  /** How many events behind the stream's end `after` may be; further, the feed starts at the end. */
  catchUpAtMost?: number;
  onEvent: (type: string, body: Uint8Array, position: number) => void;
  /** What onEvent threw: the feed goes on with the next event. */
  onError: (err: unknown, type: string) => void;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Follows the bus in the stream's order: each event (its type, read from the subject, and its body)
 * with its place in the stream, its sequence. The sequence is one order for every reader of the bus,
 * whichever connection published what and whichever replica follows it: core subscriptions of two
 * replicas can see two publishers' events in different orders, the stream cannot. The feed starts
 * after a given place (what the stream still keeps of what came after it), or at the stream's end.
 * The consumer is an ordered one (no acks, nothing kept on the broker when the feed stops).
 *
 * In a cluster the consumer lives on one server. When that server goes, nothing says so but silence:
 * the client's own recovery asks the server for a consumer whose server is gone and waits. So the feed
 * makes a new consumer itself, from the place it had reached (no gap, nothing twice), when two
 * heartbeats are missed (every FEED_HEARTBEAT_MS while no event comes) and after every reconnect.
 */
export async function followBus(options: FeedOptions): Promise<BusFeed> {
  const { nc, bus } = options;
  const { state } = await (await jetstreamManager(nc)).streams.info(bus.stream);
  // From the stream's end when the place is beyond it (the stream was made again, its sequence
  // started over) or too far behind it (what came meanwhile is too much to go through at a start).
  const { after } = options;
  const from =
    after !== undefined &&
    after <= state.last_seq &&
    state.last_seq - after <= (options.catchUpAtMost ?? Infinity)
      ? after
      : state.last_seq;
  let next = Math.max(from + 1, state.first_seq);
  let generation = 0;
  let current: ConsumerMessages | undefined;
  let replacing: Promise<void> | undefined;
  let stopped = false;

  const open = async (): Promise<ConsumerMessages> => {
    const own = ++generation;
    const consumer = await jetstream(nc, { timeout: FEED_API_TIMEOUT_MS }).consumers.get(bus.stream, {
      filter_subjects: `${bus.prefix}.>`,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: next,
    });
    const messages = await consumer.consume({
      // The server sends a heartbeat to every pull waiting, and answers each one's end: the client's
      // default tops up with a new pull whenever a quarter of its 100 messages are in, which after a
      // burst of events kept half a dozen pulls waiting, each with its heartbeat every second and its
      // expiry every two. The next pull goes out when one message is left of those asked for (one or
      // two pulls waiting), and a pull waits for ten heartbeats.
      threshold_messages: 1,
      idle_heartbeat: FEED_HEARTBEAT_MS,
      expires: FEED_HEARTBEAT_MS * 10,
      callback: (msg) => {
        // A consumer replaced may still hand over what it had: the new one has it too, in order.
        if (own !== generation || msg.info.streamSequence < next) return;
        next = msg.info.streamSequence + 1;
        const type = typeOfSubject(bus, msg.subject);
        try {
          const deliver = () => options.onEvent(type, msg.data, msg.info.streamSequence);
          // In the trace of the request that caused the event (the live room's part of it).
          if (tracingOn())
            inConsumerSpan(`feed ${type}`, [msg.headers], { 'messaging.system': 'nats' }, deliver);
          else deliver();
        } catch (err) {
          options.onError(err, type);
        }
      },
    });
    void (async () => {
      for await (const s of messages.status())
        if (s.type === 'heartbeats_missed' && s.count >= 2 && own === generation) return replace();
    })();
    return messages;
  };

  /**
   * A new consumer from where the feed is, tried again until one is made: after 250 ms, doubling to
   * 1 s (a question that found no answer has waited FEED_API_TIMEOUT_MS already). While a cluster
   * elects new leaders (several seconds after a server dies) no consumer can be made; the feed takes the
   * first moment one can.
   */
  const replace = () => {
    replacing ??= (async () => {
      current?.stop();
      for (let attempt = 0; !stopped; attempt++) {
        try {
          current = await open();
          if (stopped) current.stop();
          return;
        } catch {
          await pause(Math.min(1_000, 250 * 2 ** attempt));
        }
      }
    })().finally(() => (replacing = undefined));
  };

  const statuses = nc.status();
  void (async () => {
    for await (const s of statuses) if (s.type === 'reconnect' && !stopped) replace();
  })();
  current = await open();
  return {
    from,
    stop: async () => {
      stopped = true;
      (statuses as { stop?: () => void }).stop?.();
      await replacing;
      await current?.close();
    },
  };
}
