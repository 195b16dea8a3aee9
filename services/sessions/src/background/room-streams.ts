import type { Response } from 'express';
import type { Session } from 'better-sse';
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
export type Stream = Session<StreamState>;

const droppedStreams = counter(
  'room_streams_dropped_total',
  'Live room streams ended because their client stopped reading',
);

/**
 * A message as the stream writes it (what better-sse's push writes), made once for every stream of
 * its room: a room of 1,000 would otherwise serialise each event 1,000 times.
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
