import type { Request, Response } from 'express';
import { counter } from '@pp/http';
import type { Logger } from '@pp/logger';
import type { PlacedRoomMessage } from '../domain/room-events.ts';

/** The live room's streams: what each one writes, and when a client that stopped reading is dropped. */

export interface StreamState {
  res: Response;
  /** Live messages held back while the stream replays what its client missed; null once live. */
  held: PlacedRoomMessage[] | null;
  /** The stream's client has everything up to this place in the bus's order: later ones go out. */
  sentThrough: number;
}
/** One client's live room stream. */
export interface Stream {
  state: StreamState;
  /** The Last-Event-ID the client sent ('' without one). */
  lastId: string;
  /** False once the response has closed (the client went, or the stream was ended or dropped). */
  isConnected: boolean;
}

/** What a Server-Sent Events answer says of itself (headers the response already has are kept). */
export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'private, no-cache, no-store, no-transform, must-revalidate, max-age=0',
  Connection: 'keep-alive',
  Pragma: 'no-cache',
  'X-Accel-Buffering': 'no',
});

/** How long a client waits before reconnecting to a stream that ended (the first line of every stream). */
const RETRY_MS = 2_000;

const LAST_EVENT_ID_QUERY = /[?&]lastEventId=([^&]*)/;

/**
 * Opens a Server-Sent Events stream on the response: its headers and the client's reconnect delay
 * are written at once; `onClose` is told once, when the response closes. A stream is this small
 * object and the response it writes to, nothing more: a replica holds thousands.
 */
export function openStream(
  req: Request,
  res: Response,
  state: StreamState,
  onClose: (stream: Stream) => void,
): Stream {
  const header = req.headers['last-event-id'];
  const query = typeof header === 'string' ? undefined : LAST_EVENT_ID_QUERY.exec(req.url)?.[1];
  const stream: Stream = {
    state,
    lastId: typeof header === 'string' ? header : query !== undefined ? safeDecode(query) : '',
    isConnected: true,
  };
  // Each event goes out as soon as it is written, not held for a fuller packet.
  req.socket?.setNoDelay(true);
  for (const [name, value] of Object.entries(EVENT_STREAM_HEADERS))
    if (!res.hasHeader(name)) res.setHeader(name, value);
  res.writeHead(200);
  res.write(`retry:${RETRY_MS}\n\n`);
  const closed = () => {
    stream.isConnected = false;
    onClose(stream);
  };
  // A client gone before its stream opened is told as gone right after (once its opener has it).
  if (res.destroyed) process.nextTick(closed);
  else res.once('close', closed);
  return stream;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return '';
  }
}

const droppedStreams = counter(
  'room_streams_dropped_total',
  'Live room streams ended because their client stopped reading',
);

/**
 * A message as the stream writes it, made once for every stream of its room: a room of 1,000 would
 * otherwise serialise each event 1,000 times.
 */
const frames = new WeakMap<PlacedRoomMessage, string>();
function frameOf(m: PlacedRoomMessage): string {
  let frame = frames.get(m);
  if (frame === undefined) {
    frame = `event:${m.type}\nid:${m.id}\ndata:${JSON.stringify(m.data)}\n\n`;
    frames.set(m, frame);
  }
  return frame;
}

/** A client may have gone between two events: nothing is written to a closed stream. */
const send = (stream: Stream, m: PlacedRoomMessage) => {
  if (stream.isConnected) stream.state.res.write(frameOf(m));
};

/** The default of how much may wait unsent for one stream's client before it is dropped. */
export const MAX_UNSENT_BYTES = 1024 * 1024;

/**
 * Delivery to the streams: a live message goes to a stream unless it replays (held) or has it already,
 * and a stream with more than `maxUnsent` bytes waiting (its client stopped reading) is dropped.
 */
export function streamWriter(maxUnsent: number, logger: Logger) {
  /** A live message to a stream: held while it replays, else sent unless its client has it already. */
  const deliverTo = (stream: Stream, m: PlacedRoomMessage) => {
    if (stream.state.held) stream.state.held.push(m);
    else if (m.position > stream.state.sentThrough) {
      stream.state.sentThrough = m.position;
      send(stream, m);
      // A response takes every write whether the socket does or not: what it did not take waits here.
      if (stream.state.res.writableLength > maxUnsent) dropSlow(stream);
    }
  };
  const dropSlow = (stream: Stream) => {
    droppedStreams.inc();
    logger.info(
      { unsent: stream.state.res.writableLength },
      'room hub: a client stopped reading, its stream dropped',
    );
    // Not end(): that would wait for the unsent bytes to go. The socket goes, and the stream with it.
    stream.state.res.destroy();
  };
  return { deliverTo, send };
}

/**
 * One timer comments on every open stream, rather than one per stream: a stream's own timer would
 * also keep its request's context (its entity manager) alive as long as the stream.
 */
export function keepAlive(rooms: Map<string, Set<Stream>>, everyMs: number) {
  const beat = setInterval(() => {
    for (const streams of rooms.values())
      for (const stream of streams) if (stream.isConnected) stream.state.res.write(':\n\n');
  }, everyMs);
  beat.unref();
  return beat;
}
