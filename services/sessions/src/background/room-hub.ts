import type { Request, Response } from 'express';
import { createSession, type Session } from 'better-sse';
import { subjectFor, type EventBus, type NatsConnection } from '@pp/events';
import { gauge } from '@pp/http';
import type { Logger } from '@pp/logger';
import { roomEventTypes, toRoomMessage, type RoomMessage } from '../domain/room-events.ts';

interface StreamState {
  res: Response;
  /** Live messages held back while the stream replays what its client missed; null once live. */
  held: RoomMessage[] | null;
  /**
   * The ids the replay sent. An event is recorded when it happens and published a moment later, so
   * one replayed from the record can still come live after the replay: it is not sent twice.
   */
  replayed: Set<string>;
}
type Stream = Session<StreamState>;

export interface RoomHub {
  /** Streams the room to this client: first what it missed since Last-Event-ID, then live. */
  open(
    req: Request,
    res: Response,
    sessionId: string,
    replay: (lastId: string) => Promise<RoomMessage[]>,
  ): Promise<void>;
  stop(): Promise<void>;
}

const openStreams = gauge('room_streams_open', 'Live room streams open on this replica');

/** A client may have gone between two events: nothing is pushed to a closed stream. */
const send = (stream: Stream, m: RoomMessage) => {
  if (stream.isConnected) stream.push(m.data, m.type, m.id);
};

/** A live message to a stream: held while it replays, else sent unless the replay sent it. */
const deliverTo = (stream: Stream, m: RoomMessage) => {
  if (stream.state.held) stream.state.held.push(m);
  else if (!stream.state.replayed.has(m.id)) send(stream, m);
};

/**
 * The live room of this replica: a core NATS subscription to the room's event types fans each event
 * out to the streams of its session open here. Every replica does the same, so a client may hold its
 * stream on any of them. Streams end when the service shuts down (clients reconnect elsewhere).
 */
export function createRoomHub(options: {
  nc: NatsConnection;
  bus: EventBus;
  logger: Logger;
  isShuttingDown: () => boolean;
  keepAliveMs?: number;
}): RoomHub {
  const rooms = new Map<string, Set<Stream>>();

  const deliver = (m: RoomMessage) => {
    for (const stream of rooms.get(m.sessionId) ?? []) deliverTo(stream, m);
  };
  const subscriptions = roomEventTypes.map((type) =>
    options.nc.subscribe(subjectFor(options.bus, type), {
      callback: (err, msg) => {
        if (err) return;
        try {
          const message = toRoomMessage(msg.json());
          if (message) deliver(message);
        } catch (error) {
          options.logger.warn({ err: error, subject: msg.subject }, 'room hub: unreadable event');
        }
      },
    }),
  );

  const closeAll = () => {
    for (const streams of rooms.values()) for (const stream of streams) stream.state.res.end();
  };
  const watch = setInterval(() => {
    if (options.isShuttingDown()) closeAll();
  }, 250);
  watch.unref();

  return {
    async open(req, res, sessionId, replay) {
      const stream = await createSession<StreamState>(req, res, {
        keepAlive: options.keepAliveMs ?? 15_000,
        state: { res, held: [], replayed: new Set() },
      });
      const streams = rooms.get(sessionId) ?? new Set<Stream>();
      rooms.set(sessionId, streams.add(stream));
      openStreams.inc();
      stream.once('disconnected', () => {
        openStreams.dec();
        streams.delete(stream);
        if (streams.size === 0 && rooms.get(sessionId) === streams) rooms.delete(sessionId);
      });
      try {
        for (const m of stream.lastId ? await replay(stream.lastId) : []) {
          stream.state.replayed.add(m.id);
          send(stream, m);
        }
      } catch (err) {
        options.logger.warn({ err }, 'room hub: could not replay the missed events');
      } finally {
        // What came live meanwhile follows, replay or not (what the replay sent is not sent again).
        const held = stream.state.held ?? [];
        stream.state.held = null;
        for (const m of held) deliverTo(stream, m);
      }
    },
    async stop() {
      clearInterval(watch);
      for (const s of subscriptions) s.unsubscribe();
      closeAll();
    },
  };
}
