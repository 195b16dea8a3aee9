import type { Request, Response } from 'express';
import { atMost } from '@pp/async';
import { eventEnvelopeSchema, parseEventData, type EventEnvelope, type EventType } from '@pp/contracts';
import { followBus, type BusFeed, type EventBus, type NatsConnection } from '@pp/events';
import { gauge, ServiceUnavailableError } from '@pp/http';
import type { Logger } from '@pp/logger';
import {
  isRoomType,
  toRoomMessage,
  type PlacedRoomMessage,
  type RoomMessage,
} from '../domain/room-events.ts';
import {
  EVENT_STREAM_HEADERS,
  keepAlive,
  MAX_UNSENT_BYTES,
  openStream,
  streamWriter,
  type Stream,
} from './room-streams.ts';

/** What a reconnecting client missed: the room's messages after its last one, up to a place. */
export type Replay = (
  lastId: string,
  upTo: number,
) => Promise<{ messages: PlacedRoomMessage[]; lastPosition: number | undefined }>;

export interface RoomHub {
  /** Streams the room to this client: first what it missed since Last-Event-ID, then live. */
  open(req: Request, res: Response, sessionId: string, replay: Replay): Promise<void>;
  /**
   * The place of the last event the live feed has given (undefined while it is not up): every event
   * up to it has been published, so its change is committed.
   */
  position(): number | undefined;
  stop(): Promise<void>;
}

const openStreams = gauge('room_streams_open', 'Live room streams open on this replica');

/** A room event checked against its contract, or undefined when the contract refuses it. */
function roomEventOf(json: unknown): EventEnvelope | undefined {
  try {
    const envelope = eventEnvelopeSchema.parse(json);
    return { ...envelope, data: parseEventData(envelope.type as EventType, envelope.data) };
  } catch {
    return undefined;
  }
}

/** How long a reconnect waits for the room's record to catch up with the live feed. */
const RECORD_LAG_MS = 1_000;
/** How long a stream waits for the live feed of a replica that is starting. */
const FEED_WAIT_MS = 2_000;
/** The most events written in one statement. */
const RECORD_BATCH = 256;
/**
 * How far behind the bus the record may be for a starting replica to go through what it missed. A
 * round cannot change while no sessions replica runs (every story change asks this unit), so what
 * the room shows is rarely behind by much; a longer backlog (other units' events) is skipped.
 */
const CATCH_UP_AT_MOST = 10_000;
/** The most events held for the record while it cannot be written (the database away). */
const MAX_UNRECORDED = 50_000;

/**
 * A room event as the feed gives it to the record: the event (checked), what the room shows of it (as
 * sent to the streams) and its place in the stream.
 */
export interface FedEvent {
  event: EventEnvelope;
  message: RoomMessage;
  position: number;
}

/**
 * The live room of this replica. The room has one order, the bus's: every event has a place in the
 * event stream (its sequence). The feed follows the stream in that order and does two things with
 * each event the room shows: it fans it out to the streams of its session open here, and it writes it
 * with its place to the room's record (other units' events whole, this unit's own only their place:
 * they are recorded with their change). The feed starts where the record ends, so what was published
 * while no replica ran is recorded when one starts (up to CATCH_UP_AT_MOST events back); every replica
 * records everything (each write is idempotent), and each knows how far its own writes have come. So
 * a client that reconnects with Last-Event-ID is replayed exactly the events between its last one and
 * the first one it gets live: none missed, none twice, whichever replica it reaches. Streams end when
 * the service shuts down (clients reconnect elsewhere).
 */
export function createRoomHub(options: {
  nc: NatsConnection;
  bus: EventBus;
  logger: Logger;
  isShuttingDown: () => boolean;
  /** Writes room events with their places to the record (idempotent). */
  record: (events: FedEvent[]) => Promise<void>;
  /** The place of the last event in the record, if any. */
  lastRecorded: () => Promise<number | undefined>;
  keepAliveMs?: number;
  /**
   * How much may wait unsent for one client (the response's buffer, past what the socket took): a
   * client that stops reading is dropped past it, so that it holds at most this much memory here
   * while the others go on. It reconnects with Last-Event-ID when it reads again.
   */
  maxUnsentBytes?: number;
  /**
   * The stories unit committed a change of a session's stories: the round version its events carry
   * (they go out only after the commit).
   */
  onStoriesCommitted?: (sessionId: string, roundVersion: number) => void;
}): RoomHub {
  const { deliverTo, send } = streamWriter(options.maxUnsentBytes ?? MAX_UNSENT_BYTES, options.logger);
  const rooms = new Map<string, Set<Stream>>();
  /** The place of the last event the feed has given: every later one reaches the open streams. */
  let position = 0;
  /** Every room event up to this place is in the record (written by this replica or before it). */
  let recordedThrough = 0;
  let unrecorded: FedEvent[] = [];
  let writing: Promise<void> | undefined;
  /** Events are being dropped for want of a record (logged once until a write succeeds). */
  let dropping = false;

  /** Writes what the feed gave, a batch at a time and in order; a failed write is tried again. */
  async function writeRecord() {
    while (unrecorded.length > 0) {
      const batch = unrecorded.slice(0, RECORD_BATCH);
      // Up to just before the first event left unwritten (events between are not the room's).
      const through = unrecorded.length > batch.length ? unrecorded[batch.length]!.position - 1 : position;
      try {
        await options.record(batch);
        // (What was held may have been cut meanwhile: what follows the batch stays.)
        const written = batch.at(-1)!.position;
        const rest = unrecorded.findIndex((f) => f.position > written);
        unrecorded = rest < 0 ? [] : unrecorded.slice(rest);
        recordedThrough = Math.max(recordedThrough, through);
        dropping = false;
      } catch (err) {
        options.logger.warn(
          { err, events: unrecorded.length },
          'room hub: cannot write the record, trying again',
        );
        if (stopped) return;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    recordedThrough = Math.max(recordedThrough, position);
  }
  const keepRecord = () => {
    if (unrecorded.length === 0 && !writing) recordedThrough = position;
    else
      writing ??= writeRecord().finally(() => {
        writing = undefined;
        if (unrecorded.length > 0 && !stopped) keepRecord();
      });
  };

  const onEvent = (type: string, body: Uint8Array, at: number) => {
    position = at;
    if (isRoomType(type)) {
      const json = JSON.parse(new TextDecoder().decode(body)) as { round_version?: unknown };
      const event = roomEventOf(json);
      const message = event && toRoomMessage(event);
      if (message && event.source === 'stories' && Number.isInteger(json.round_version))
        options.onStoriesCommitted?.(message.sessionId, json.round_version as number);
      if (event && message) {
        if (unrecorded.push({ event, message, position: at }) > MAX_UNRECORDED) {
          // The database has been away long: the oldest go unrecorded (a reconnect misses them).
          unrecorded = unrecorded.slice(-MAX_UNRECORDED);
          if (!dropping)
            options.logger.error(
              { kept: MAX_UNRECORDED },
              'room hub: record too far behind, oldest events dropped',
            );
          dropping = true;
        }
        const placed = { ...message, position: at };
        for (const stream of rooms.get(message.sessionId) ?? []) deliverTo(stream, placed);
      } else
        options.logger.warn({ type, position: at }, 'room hub: an event its contract refuses, not shown');
    }
    keepRecord();
  };
  const onError = (err: unknown, type: string) =>
    options.logger.warn({ err, type }, 'room hub: unreadable event');
  // The feed starts with the replica, where the record ends; a failed start (the broker busy or away
  // a moment) is tried again every second, and streams are refused (503) until it is up.
  let feed: BusFeed | undefined;
  let stopped = false;
  const started = (async () => {
    for (let attempt = 1; !stopped; attempt++) {
      try {
        const after = await options.lastRecorded();
        const f = await followBus({
          nc: options.nc,
          bus: options.bus,
          after,
          catchUpAtMost: CATCH_UP_AT_MOST,
          onEvent,
          onError,
        });
        position = Math.max(position, f.from);
        recordedThrough = Math.max(recordedThrough, f.from);
        if (stopped) await f.stop();
        else feed = f;
        return;
      } catch (err) {
        if (attempt === 1 || attempt % 30 === 0)
          options.logger.error({ err, attempt }, 'room hub: cannot follow the event stream, trying again');
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  })();

  /** Waits (a moment at most) until the record has every event up to a place; false if it has not. */
  async function recordHas(place: number): Promise<boolean> {
    const deadline = Date.now() + RECORD_LAG_MS;
    while (recordedThrough < place) {
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return true;
  }

  const closeAll = () => {
    for (const streams of rooms.values()) for (const stream of streams) stream.state.res.end();
  };
  const watch = setInterval(() => {
    if (options.isShuttingDown()) closeAll();
  }, 250);
  watch.unref();
  const beat = keepAlive(rooms, options.keepAliveMs ?? 15_000);

  return {
    async open(req, res, sessionId, replay) {
      // Right after the replica started, its feed may be a moment away.
      if (!feed) await atMost(FEED_WAIT_MS, started, undefined);
      if (!feed) throw new ServiceUnavailableError('The live room is unavailable, try again shortly');
      // A HEAD gets what a GET would, without the stream: nothing is ever written to its response, so
      // a session made for it would never send its headers nor end.
      if (req.method === 'HEAD') {
        res.writeHead(200, EVENT_STREAM_HEADERS).end();
        return;
      }
      const streams = rooms.get(sessionId) ?? new Set<Stream>();
      const stream = openStream(req, res, { res, held: [], sentThrough: 0 }, (closed) => {
        openStreams.dec();
        streams.delete(closed);
        if (streams.size === 0 && rooms.get(sessionId) === streams) rooms.delete(sessionId);
      });
      // From here every event reaches this stream live (held until the replay is sent).
      const upTo = position;
      stream.state.sentThrough = upTo;
      rooms.set(sessionId, streams.add(stream));
      openStreams.inc();
      try {
        if (stream.lastId) {
          if (!(await recordHas(upTo)))
            options.logger.warn(
              { upTo },
              'room hub: the record is behind the live feed, the replay may miss events',
            );
          const missed = await replay(stream.lastId, upTo);
          for (const m of missed.messages) send(stream, m);
          // A client coming from a replica whose feed was ahead has seen a little more than upTo.
          stream.state.sentThrough = Math.max(upTo, missed.lastPosition ?? 0);
        }
      } catch (err) {
        options.logger.warn({ err }, 'room hub: could not replay the missed events');
      } finally {
        // What came live meanwhile follows, replay or not (what the client has is not sent again).
        const held = stream.state.held ?? [];
        stream.state.held = null;
        for (const m of held) deliverTo(stream, m);
      }
    },
    position: () => (feed ? position : undefined),
    async stop() {
      clearInterval(watch);
      clearInterval(beat);
      stopped = true;
      await feed?.stop();
      await started;
      await writing;
      closeAll();
    },
  };
}
