import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  DiscardPolicy,
  type StreamConfig,
} from '@nats-io/jetstream';
import { z } from 'zod';
import type { Logger } from '@pp/logger';
import { defaultBus, type EventBus } from './bus.ts';

export type { NatsConnection } from '@nats-io/transport-node';

/**
 * A NATS connection that never gives up reconnecting (an outage must not end the process). `user` and
 * `password`: the unit's own user on a broker that requires one (each unit may publish only its own
 * events, see broker-permissions.ts); without them it connects as anyone, to a broker that allows that.
 */
export async function connectNats(options: {
  url: string;
  name: string;
  user?: string;
  password?: string;
  logger: Logger;
}): Promise<NatsConnection> {
  const nc = await connect({
    servers: options.url.split(',').map((s) => s.trim()),
    name: options.name,
    ...(options.user ? { user: options.user, pass: options.password } : {}),
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    waitOnFirstConnect: false,
    timeout: 3_000,
    // Every publish would otherwise build two Error objects up front for their stack traces (a few
    // percent of a busy service's CPU); failures are still reported, with the message and cause.
    noAsyncTraces: true,
  });
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect') {
        options.logger.warn({ nats: status.type }, `nats ${status.type}`);
      }
    }
  })();
  return nc;
}

/** How long the event stream keeps an event (so how late a redelivery can come). */
export const EVENT_RETENTION_SECONDS = 7 * 24 * 3600;

/** How long ensureStream waits for a cluster that does not answer yet (electing a leader, busy starting). */
export const STREAM_SETUP_PATIENCE_MS = 30_000;

/**
 * A cluster that cannot answer yet (no leader, no quorum) times out, has no responder, or says
 * "JetStream system temporarily unavailable".
 */
const notAnsweringYet = (err: unknown) =>
  /timeout|no responders|temporarily unavailable/i.test((err as Error)?.message ?? '');

/**
 * Another replica is making or changing the same stream at this moment (a cluster answers a second
 * creation of a stream still being made with "already in use", and a change racing another one with
 * "subjects overlap with an existing stream"): read it again, and it is there as it should be.
 */
const madeMeanwhile = (err: unknown) =>
  /already in use|subjects overlap/i.test((err as Error)?.message ?? '');

/**
 * `work` again (0.25 s doubling to 2 s, with jitter so that replicas starting together spread out)
 * while the cluster does not answer, or `alsoRetry` says the failure passes, for `patienceMs` at most.
 */
export async function whenJetStreamAnswers<T>(
  work: () => Promise<T>,
  patienceMs: number = STREAM_SETUP_PATIENCE_MS,
  alsoRetry: (err: unknown) => boolean = () => false,
): Promise<T> {
  const deadline = Date.now() + patienceMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (!(notAnsweringYet(err) || alsoRetry(err)) || Date.now() >= deadline) throw err;
      const pause = Math.min(2_000, 250 * 2 ** attempt) * (0.5 + Math.random());
      await new Promise((r) => setTimeout(r, pause));
    }
  }
}

/** Whether a stream's configuration already has every setting ensureStream gives it. */
function sameStream(current: Partial<StreamConfig>, wanted: Partial<StreamConfig>): boolean {
  return (Object.keys(wanted) as Array<keyof StreamConfig>).every(
    (key) => JSON.stringify(current[key]) === JSON.stringify(wanted[key]),
  );
}

/**
 * Creates (or updates) the event stream and the dead-letter stream. `replicas`: on how many servers
 * of a NATS cluster each keeps its messages (1 for a single server; 3 lets a cluster lose one server
 * without losing an event). A stream kept with another count is changed to this one. A cluster that
 * does not answer yet (replicas starting together while it elects its leader, or a creation that
 * timed out while it went on) is waited for, up to `patienceMs`, and so is a stream another replica
 * is making at the same moment; a count the servers cannot keep fails at once.
 */
export async function ensureStream(
  nc: NatsConnection,
  bus: EventBus = defaultBus,
  { replicas = 1, patienceMs = STREAM_SETUP_PATIENCE_MS }: { replicas?: number; patienceMs?: number } = {},
): Promise<void> {
  const jsm = await whenJetStreamAnswers(() => jetstreamManager(nc), patienceMs);
  const streams: Array<[string, string, number]> = [
    [bus.stream, `${bus.prefix}.>`, EVENT_RETENTION_SECONDS],
    [bus.deadLetterStream, `${bus.deadLetterPrefix}.>`, 30 * 24 * 3600],
  ];
  for (const [name, subject, maxAgeSeconds] of streams) {
    const config = {
      name,
      subjects: [subject],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      discard: DiscardPolicy.Old,
      max_age: maxAgeSeconds * 1e9,
      duplicate_window: 120 * 1e9,
      num_replicas: replicas,
    };
    let exists = false;
    try {
      await whenJetStreamAnswers(
        async () => {
          const current = await jsm.streams.info(name).then(
            (info) => info.config,
            (err: Error) => {
              if (notAnsweringYet(err)) throw err;
              return undefined;
            },
          );
          exists = current !== undefined;
          // A stream made as it should be (by another replica, or an earlier start) is left alone:
          // replicas starting together do not all change it at once.
          if (current && sameStream(current, config)) return;
          await (current ? jsm.streams.update(name, config) : jsm.streams.add(config));
        },
        patienceMs,
        madeMeanwhile,
      );
    } catch (err) {
      throw new Error(
        `could not ${exists ? 'update' : 'create'} the stream ${name} with ${replicas} replica(s) (EVENTS_REPLICAS): ${(err as Error).message}`,
        { cause: err },
      );
    }
  }
}

/** Deletes streams by name (one that is not there is no error). */
export async function deleteStreams(nc: NatsConnection, names: readonly string[]): Promise<void> {
  const jsm = await jetstreamManager(nc);
  for (const name of names) await jsm.streams.delete(name).catch(() => undefined);
}

/** Deletes a bus's event and dead-letter streams: what a test or a benchmark published goes with it. */
export const deleteBusStreams = (nc: NatsConnection, bus: EventBus) =>
  deleteStreams(nc, [bus.stream, bus.deadLetterStream]);

/** Deletes a durable consumer the service no longer runs (nothing happens when there is none). */
export async function removeConsumer(nc: NatsConnection, bus: EventBus, durable: string): Promise<boolean> {
  const jsm = await jetstreamManager(nc);
  return jsm.consumers.delete(bus.stream, durable).catch(() => false);
}

const consumerNamesPage = z.object({
  total: z.number().int().nonnegative().optional(),
  consumers: z.array(z.string()).nullish(),
  error: z.object({ code: z.number(), description: z.string() }).optional(),
});

/**
 * The names of a stream's consumers, from JetStream's names API (a page of up to 1,024 names a
 * request): listing them would send every consumer's whole description, its configuration and
 * state, where a check of which durables exist needs their names alone.
 */
export async function consumerNames(nc: NatsConnection, stream: string, timeoutMs = 5_000) {
  const names = new Set<string>();
  for (;;) {
    const reply = await nc.request(
      `$JS.API.CONSUMER.NAMES.${stream}`,
      JSON.stringify({ offset: names.size }),
      {
        timeout: timeoutMs,
      },
    );
    const page = consumerNamesPage.parse(reply.json());
    if (page.error)
      throw new Error(`the consumers of ${stream}: ${page.error.description} (${page.error.code})`);
    const before = names.size;
    for (const name of page.consumers ?? []) names.add(name);
    // Done at the end, or when a page brings nothing new (consumers removed while it pages).
    if (names.size === before || names.size >= (page.total ?? 0)) return names;
  }
}

/** Readiness: the connection is up and the server answers. */
export async function natsCheck(nc: NatsConnection): Promise<void> {
  if (nc.isClosed()) throw new Error('nats connection closed');
  await nc.flush();
}
