import {
  AckPolicy,
  DeliverPolicy,
  type ConsumerConfig,
  type ConsumerInfo,
  type JetStreamManager,
} from '@nats-io/jetstream';
import type { Logger } from '@pp/logger';
import type { EventBus } from './bus.ts';

/** Where a durable consumer stands, and what it takes (ConsumerOptions names these the same way). */
export interface DurablePlacement {
  durable: string;
  /** One subject filter (NATS 2.9 takes one per consumer), e.g. `pp.story.revealed`. */
  filterSubject: string;
  ackWaitMs?: number;
  /**
   * Durables an earlier version of the unit ran, whose events this one now takes (all or some of
   * them): a new durable starts right after the least position they acknowledged (redelivering what
   * they had taken but not yet acknowledged), so that nothing they had left is lost. Retire them once
   * this one is running.
   */
  takesOverFrom?: readonly string[];
  /**
   * Where a new durable starts when none of `takesOverFrom` is there: the events from this time on
   * (a consumer that exists only while something wants its events). The stream's first event otherwise.
   */
  startTime?: Date;
}

/**
 * The stream position a durable would go on from: right after what it acknowledged; right after where
 * it stands when it has not taken anything yet; else (taken, nothing acknowledged) where it started,
 * or at the stream's first event when that is not known by a position (its handlers are idempotent).
 */
export function resumePosition(info: ConsumerInfo): number {
  if (info.ack_floor.consumer_seq > 0) return info.ack_floor.stream_seq + 1;
  if (info.delivered.consumer_seq === 0) return info.delivered.stream_seq + 1;
  if (info.config.deliver_policy === DeliverPolicy.StartSequence && info.config.opt_start_seq)
    return info.config.opt_start_seq;
  return 1;
}

/** The least position the durables would go on from (undefined: none of them is there). */
async function positionOf(jsm: JetStreamManager, bus: EventBus, durables: readonly string[]) {
  let position: number | undefined;
  for (const name of durables) {
    const info = await jsm.consumers.info(bus.stream, name).catch(() => undefined);
    if (info) position = Math.min(position ?? Infinity, resumePosition(info));
  }
  return position;
}

/**
 * Makes sure the durable consumer is there and takes what `placement` says, without losing an event:
 * - not there: created where the durables it takes over from would go on from (the least of them:
 *   see resumePosition), else at `startTime`, else at the stream's first event;
 * - there with another filter (the unit now takes other events): the filter is changed in place (NATS
 *   2.9 allows it), so the durable keeps its position and its unacknowledged messages; a filter the
 *   broker refuses to change is replaced by a new durable of the same name started where the old one
 *   would go on from (what it had taken but not acknowledged comes again: handlers are idempotent, or
 *   skip what their processed-events table holds).
 * Resolves with what it did.
 */
export async function ensureDurable(
  jsm: JetStreamManager,
  bus: EventBus,
  placement: DurablePlacement,
  logger?: Logger,
): Promise<'created' | 'kept' | 'refiltered' | 'recreated'> {
  const config: Partial<ConsumerConfig> = {
    durable_name: placement.durable,
    ack_policy: AckPolicy.Explicit,
    filter_subject: placement.filterSubject,
    // No broker-side limit: the consumer decides (a dependency outage is retried for as long as it lasts).
    max_deliver: -1,
    ack_wait: (placement.ackWaitMs ?? 30_000) * 1e6,
    max_ack_pending: 1_000,
  };
  const existing = await jsm.consumers.info(bus.stream, placement.durable).catch(() => undefined);
  if (existing) {
    if (existing.config.filter_subject === placement.filterSubject) return 'kept';
    const from = existing.config.filter_subject;
    try {
      await jsm.consumers.update(bus.stream, placement.durable, { filter_subject: placement.filterSubject });
      logger?.info(
        { consumer: placement.durable, from, to: placement.filterSubject },
        'durable consumer now takes another subject (its position kept)',
      );
      return 'refiltered';
    } catch (err) {
      const startSeq = resumePosition(existing);
      await jsm.consumers.delete(bus.stream, placement.durable);
      await jsm.consumers.add(bus.stream, {
        ...config,
        deliver_policy: DeliverPolicy.StartSequence,
        opt_start_seq: startSeq,
      });
      logger?.warn(
        { err, consumer: placement.durable, from, to: placement.filterSubject, start_seq: startSeq },
        'durable consumer made again for another subject, after its acknowledged position',
      );
      return 'recreated';
    }
  }
  const position = await positionOf(jsm, bus, placement.takesOverFrom ?? []);
  await jsm.consumers.add(bus.stream, {
    ...config,
    ...(position !== undefined
      ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: position }
      : placement.startTime
        ? { deliver_policy: DeliverPolicy.StartTime, opt_start_time: placement.startTime.toISOString() }
        : { deliver_policy: DeliverPolicy.All }),
  });
  if (position !== undefined)
    logger?.info(
      { consumer: placement.durable, after: placement.takesOverFrom, start_seq: position },
      'durable consumer takes over where an earlier one stood',
    );
  return 'created';
}
