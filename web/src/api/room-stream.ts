import { createSseParser } from './sse.ts';

export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'offline' | 'gone';

export interface RoomStreamHandlers {
  onEvent(type: string, data: unknown): void;
  onStatus(status: StreamStatus): void;
  /** The stream is open again after a drop: what it missed follows (Last-Event-ID), and a fresh read may help. */
  onResumed(): void;
}

/** The server comments every 15 s: this long without a byte means the connection is dead. */
const SILENCE_MS = 40_000;
const RETRY_MS = [500, 1_000, 2_000, 5_000, 10_000];

/**
 * The live room over fetch rather than EventSource, so that every reconnection (after a drop, a
 * server restart or the browser coming back online) sends the last event id seen as Last-Event-ID
 * and the server replays what was missed (from the start, the place a room read gave). Retries with backoff until closed; a 404 (the room is
 * gone) ends it.
 */
export function openRoomStream(
  url: string,
  handlers: RoomStreamHandlers,
  /** Where to start: the place a read of the room gave (nothing missed since the read). */
  lastId?: string,
  /** The participant token this browser holds for the room, read at each connection. */
  seatToken: () => string | undefined = () => undefined,
): { close(): void; reconnect(): void } {
  let closed = false;
  let attempt = 0;
  let connectedOnce = false;
  /** A reconnection asked for (a seat taken): nothing was missed, so no fresh read is called for. */
  let asked = false;
  let controller: AbortController | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const abort = () => controller?.abort();
  const schedule = (ms: number) => {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, ms);
  };
  const retry = () => {
    if (closed) return;
    if (!navigator.onLine) return handlers.onStatus('offline');
    handlers.onStatus('reconnecting');
    schedule(RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]! * (0.75 + Math.random() / 2));
  };

  async function connect() {
    clearTimeout(retryTimer);
    if (closed) return;
    abort();
    const mine = new AbortController();
    controller = mine;
    handlers.onStatus(connectedOnce ? 'reconnecting' : 'connecting');
    let silence: ReturnType<typeof setTimeout> | undefined;
    const quiet = () => {
      clearTimeout(silence);
      silence = setTimeout(() => mine.abort(), SILENCE_MS);
    };
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (lastId) headers['last-event-id'] = lastId;
      // Read at each connection: a seat taken after the stream opened goes with the next one.
      const seat = seatToken();
      if (seat) headers['x-participant-token'] = seat;
      quiet();
      const res = await fetch(url, { headers, signal: mine.signal, cache: 'no-store' });
      if (res.status === 404) {
        closed = true;
        return handlers.onStatus('gone');
      }
      if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
      attempt = 0;
      handlers.onStatus('live');
      if (connectedOnce && !asked) handlers.onResumed();
      asked = false;
      connectedOnce = true;
      const parse = createSseParser((m) => {
        if (m.id) lastId = m.id;
        let data: unknown;
        try {
          data = JSON.parse(m.data);
        } catch {
          return;
        }
        handlers.onEvent(m.type, data);
      });
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        quiet();
        parse(value);
      }
    } catch {
      // A drop, a silence or an abort: retried below unless closed or replaced.
    } finally {
      clearTimeout(silence);
    }
    if (controller === mine) retry();
  }

  const offline = () => {
    handlers.onStatus('offline');
    clearTimeout(retryTimer);
    abort();
  };
  const online = () => {
    attempt = 0;
    void connect();
  };
  window.addEventListener('offline', offline);
  window.addEventListener('online', online);
  void connect();

  return {
    /** Opens the stream again from where it stands: with the seat taken since, which marks this participant connected. */
    reconnect() {
      if (closed) return;
      attempt = 0;
      asked = true;
      void connect();
    },
    close() {
      closed = true;
      clearTimeout(retryTimer);
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
      abort();
    },
  };
}
