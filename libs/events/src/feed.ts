import { DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { inConsumerSpan, tracingOn } from '@pp/telemetry';
import type { EventBus } from './bus.ts';

/** A live feed of the bus: stop it to let go of its consumer. */
export interface BusFeed {
  /** The place in the stream the feed started after: every later event comes to it, in order. */
  from: number;
  stop(): Promise<void>;
}

/**
 * Follows the bus in the stream's order: each event (its type, read from the subject, and its body)
 * with its place in the stream, its sequence. The sequence is one order for every reader of the bus,
 * whichever connection published what and whichever replica follows it: core subscriptions of two
 * replicas can see two publishers' events in different orders, the stream cannot. The feed starts
 * after a given place (what the stream still keeps of what came after it), or at the stream's end.
 * The consumer is an ordered one (no acks, nothing kept on the broker when the feed stops); it
 * recreates itself after a reconnect from the place it had reached, so the feed has no gaps.
 */
export async function followBus(options: {
  nc: NatsConnection;
  bus: EventBus;
  /** Start after this place; the stream's end when absent (or beyond the end). */
  after?: number;
  /** How many events behind the stream's end `after` may be; further, the feed starts at the end. */
  catchUpAtMost?: number;
  onEvent: (type: string, body: Uint8Array, position: number) => void;
  /** What onEvent threw: the feed goes on with the next event. */
  onError: (err: unknown, type: string) => void;
}): Promise<BusFeed> {
  const jsm = await jetstreamManager(options.nc);
  const { state } = await jsm.streams.info(options.bus.stream);
  // From the stream's end when the place is beyond it (the stream was made again, its sequence
  // started over) or too far behind it (what came meanwhile is too much to go through at a start).
  const { after } = options;
  const from =
    after !== undefined &&
    after <= state.last_seq &&
    state.last_seq - after <= (options.catchUpAtMost ?? Infinity)
      ? after
      : state.last_seq;
  const consumer = await jetstream(options.nc).consumers.getPushConsumer(options.bus.stream, {
    filter_subjects: `${options.bus.prefix}.>`,
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: Math.max(from + 1, state.first_seq),
  });
  const skip = options.bus.prefix.length + 1;
  const messages = await consumer.consume({
    callback: (msg) => {
      const type = msg.subject.slice(skip);
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
  return {
    from,
    stop: async () => {
      await messages.close();
    },
  };
}
