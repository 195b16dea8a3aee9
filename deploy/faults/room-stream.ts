/**
 * One connection to a room's live stream (`GET /sessions/{code}/events`, Server-Sent Events), read
 * with node's own HTTP client so the run controls every timeout.
 */
import http from 'node:http';
import type { RoomEvent } from './observations.ts';

export interface StreamConnection {
  /** Resolves when the stream ends, fails, or is closed. */
  ended: Promise<void>;
  close(): void;
}

/** The fields of one SSE block (`id`, `event`, `data`); comments (`:`) dropped. */
function parseBlock(block: string): RoomEvent | undefined {
  const fields: Record<string, string> = {};
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    fields[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
  }
  if (fields.data === undefined) return undefined;
  try {
    return { id: fields.id ?? '', type: fields.event ?? 'message', data: JSON.parse(fields.data) };
  } catch {
    return undefined;
  }
}

/**
 * Opens the stream (with Last-Event-ID when given) and calls `onEvent` for each event. A stream whose
 * answer does not start within `connectTimeoutMs`, or that is not 200, ends at once; `onOpen` is called
 * when it is 200.
 */
export function openRoomStream(
  url: string,
  lastEventId: string | undefined,
  onEvent: (event: RoomEvent) => void,
  connectTimeoutMs: number,
  onOpen: () => void = () => undefined,
): StreamConnection {
  let finish: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (finish = resolve));
  const req = http.get(url, {
    headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
  });
  const timer = setTimeout(() => req.destroy(), connectTimeoutMs);
  req.on('error', () => finish());
  req.on('close', () => finish());
  req.on('response', (res) => {
    clearTimeout(timer);
    if (res.statusCode !== 200) {
      res.resume();
      req.destroy();
      return;
    }
    onOpen();
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk.replace(/\r\n/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = parseBlock(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (event) onEvent(event);
      }
    });
    res.on('error', () => finish());
    res.on('end', () => finish());
  });
  return {
    ended,
    close: () => {
      clearTimeout(timer);
      req.destroy();
    },
  };
}
