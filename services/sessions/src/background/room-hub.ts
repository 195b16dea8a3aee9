import type { Request, Response } from 'express';
import { atMost } from '@pp/async';
import { createSession, type Session } from 'better-sse';
import { followBus, handledThrough, type BusFeed, type EventBus, type NatsConnection } from '@pp/events';
import { gauge, ServiceUnavailableError } from '@pp/http';
import type { Logger } from '@pp/logger';
import { isRoomType, toRoomMessage, type PlacedRoomMessage } from '../domain/room-events.ts';

interface StreamState {
  res: Response;
  /** Live messages held back while the stream replays what its client missed; null once live. */
  held: PlacedRoomMessage[] | null;
  /** The stream's client has everything up to this place in the bus's order: later ones go out. */
  sentThrough: number;
}
type Stream = Session<StreamState>;

/** What a reconnecting client missed: the room's messages after its last one, up to a place. */
export type Replay = (
  lastId: string,
  upTo: number,
) => Promise<{ messages: PlacedRoomMessage[]; lastPosition: number | undefined }>;

export interface RoomHub {
  /** Streams the room to this client: first what it missed since Last-Event-ID, then live. */
  open(req: Request, res: Response, sessionId: string, replay: Replay): Promise<void>;
  stop(): Promise<void>;
}

const openStreams = gauge('room_streams_open', 'Live room streams open on this replica');

/** A client may have gone between two events: nothing is pushed to a closed stream. */
const send = (stream: Stream, m: PlacedRoomMessage) => {
  if (stream.isConnected) stream.push(m.data, m.type, m.id);
};

/** A live message to a stream: held while it replays, else sent unless its client has it already. */
const deliverTo = (stream: Stream, m: PlacedRoomMessage) => {
  if (stream.state.held) stream.state.held.push(m);
  else if (m.position > stream.state.sentThrough) {
    stream.state.sentThrough = m.position;
    send(stream, m);
  }
};

/** How long a reconnect waits for the room's record to catch up with the live feed. */
const RECORD_LAG_MS = 1_000;
/** How long a stream waits for the live feed of a replica that is starting. */
const FEED_WAIT_MS = 2_000;

/**
 * The live room of this replica. The room has one order, the bus's: every event has a place in the
 * event stream (its sequence). The live feed follows the stream in that order, from where it was when
 * the replica started, and fans each event out to the streams of its session open here; the room's
 * record keeps each event's place (the `recorder` consumer writes it). So a client that reconnects
 * with Last-Event-ID is replayed exactly the events between its last one and the first one it gets
 * live: none missed, none twice, whichever replica it reaches (each one does the same).
 * Streams end when the service shuts down (clients reconnect elsewhere).
 */
export function createRoomHub(options: {
  nc: NatsConnection;
  bus: EventBus;
  logger: Logger;
  isShuttingDown: () => boolean;
  /** The durable consumer that records the room's events with their places. */
  recorder: string;
  keepAliveMs?: number;
}): RoomHub {
  const rooms = new Map<string, Set<Stream>>();
  /** The place of the last event the live feed has seen: every later one reaches the open streams. */
  let position = 0;

  const onEvent = (type: string, body: Uint8Array, at: number) => {
    position = at;
    // Read only what a stream open here may show.
    if (rooms.size === 0 || !isRoomType(type)) return;
    const message = toRoomMessage(JSON.parse(new TextDecoder().decode(body)));
    if (message)
      for (const stream of rooms.get(message.sessionId) ?? [])
        deliverTo(stream, { ...message, position: at });
  };
  const onError = (err: unknown, type: string) =>
    options.logger.warn({ err, type }, 'room hub: unreadable event');
  // The feed starts with the replica; a failed start (the broker busy or away a moment) is tried
  // again every second, and streams are refused (503) until it is up.
  let feed: BusFeed | undefined;
  let stopped = false;
  const started = (async () => {
    for (let attempt = 1; !stopped; attempt++) {
      try {
        const f = await followBus({ nc: options.nc, bus: options.bus, onEvent, onError });
        position = Math.max(position, f.from);
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

  // The record's progress, asked of the broker by one reconnect at a time (the others wait for it).
  let recordedThrough = 0;
  let asking: Promise<void> | undefined;
  /** Waits (a moment at most) until the record has every event up to a place; false if it has not. */
  async function recordHas(place: number): Promise<boolean> {
    const deadline = Date.now() + RECORD_LAG_MS;
    for (;;) {
      if (recordedThrough >= place) return true;
      if (Date.now() >= deadline) return false;
      asking ??= handledThrough(options.nc, options.bus, options.recorder)
        .then((through) => void (recordedThrough = Math.max(recordedThrough, through)))
        .catch(() => undefined)
        .finally(() => (asking = undefined));
      await asking;
      if (recordedThrough < place) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  const closeAll = () => {
    for (const streams of rooms.values()) for (const stream of streams) stream.state.res.end();
  };
  const watch = setInterval(() => {
    if (options.isShuttingDown()) closeAll();
  }, 250);
  watch.unref();

  return {
    async open(req, res, sessionId, replay) {
      // Right after the replica started, its feed may be a moment away.
      if (!feed) await atMost(FEED_WAIT_MS, started, undefined);
      if (!feed) throw new ServiceUnavailableError('The live room is unavailable, try again shortly');
      const stream = await createSession<StreamState>(req, res, {
        keepAlive: options.keepAliveMs ?? 15_000,
        state: { res, held: [], sentThrough: 0 },
      });
      // From here every event reaches this stream live (held until the replay is sent).
      const upTo = position;
      stream.state.sentThrough = upTo;
      const streams = rooms.get(sessionId) ?? new Set<Stream>();
      rooms.set(sessionId, streams.add(stream));
      openStreams.inc();
      stream.once('disconnected', () => {
        openStreams.dec();
        streams.delete(stream);
        if (streams.size === 0 && rooms.get(sessionId) === streams) rooms.delete(sessionId);
      });
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
    async stop() {
      clearInterval(watch);
      stopped = true;
      await feed?.stop();
      await started;
      closeAll();
    },
  };
}
