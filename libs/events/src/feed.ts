import { DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { EventBus } from './bus.ts';

/** A live feed of the bus: stop it to let go of its consumer. */
export interface BusFeed {
  /** The place in the stream the feed started after: every later event comes to it. */
  from: number;
  stop(): Promise<void>;
}

/**
 * Follows the bus live, from its end as it is now, in the stream's order: each event (its type, read
 * from the subject, and its body) with its place in the stream, its sequence. The sequence is one order
 * for every reader of the bus, whichever connection published what and whichever replica follows it:
 * core subscriptions of two replicas can see two publishers' events in different orders, the stream
 * cannot. The consumer is an ordered one (no acks, nothing kept on the broker when the feed stops); it
 * recreates itself after a reconnect from the place it had reached, so the feed has no gaps.
 */
export async function followBus(options: {
  nc: NatsConnection;
  bus: EventBus;
  onEvent: (type: string, body: Uint8Array, position: number) => void;
  /** What onEvent threw: the feed goes on with the next event. */
  onError: (err: unknown, type: string) => void;
}): Promise<BusFeed> {
  const jsm = await jetstreamManager(options.nc);
  const from = (await jsm.streams.info(options.bus.stream)).state.last_seq;
  const consumer = await jetstream(options.nc).consumers.getPushConsumer(options.bus.stream, {
    filter_subjects: `${options.bus.prefix}.>`,
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: from + 1,
  });
  const skip = options.bus.prefix.length + 1;
  const messages = await consumer.consume({
    callback: (msg) => {
      const type = msg.subject.slice(skip);
      try {
        options.onEvent(type, msg.data, msg.info.streamSequence);
      } catch (err) {
        options.onError(err, type);
      }
    },
  });
  return {
    from,
    stop: async () => {
      await messages.close();
    },
  };
}

/**
 * The place in the stream up to which a durable consumer has handled (acknowledged) every event it
 * takes: its ack floor. 0 while the consumer does not exist yet.
 */
export async function handledThrough(nc: NatsConnection, bus: EventBus, durable: string): Promise<number> {
  // Asked on every reconnect of a client: one request, without checking the API first.
  const jsm = await jetstreamManager(nc, { checkAPI: false });
  const info = await jsm.consumers.info(bus.stream, durable).catch(() => undefined);
  return info?.ack_floor.stream_seq ?? 0;
}
