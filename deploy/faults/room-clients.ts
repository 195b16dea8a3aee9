/**
 * Live room clients: each follows its room's stream for the whole run, reconnecting whenever the stream
 * ends (a killed gateway or unit, a refused connection) and, on some, on purpose now and then, always
 * with Last-Event-ID once it has an event. Afterwards the room's history is read back the same way.
 */
import type { ClientView, RoomEvent } from './observations.ts';
import { openRoomStream, type StreamConnection } from './room-stream.ts';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CONNECT_TIMEOUT_MS = 10_000;
/** Most reconnects one client makes: the loop stays bounded whatever happens. */
const MAX_CONNECTIONS = 500;

export interface LiveClient {
  view: ClientView;
  /** Whether its stream is open now. */
  readonly open: boolean;
  /** Stops following and resolves once the last connection is closed. */
  stop(): Promise<void>;
}

/** `dropEveryMs`: the client closes its stream on purpose this often and resumes with Last-Event-ID. */
export function followRoom(base: string, room: string, name: string, dropEveryMs?: number): LiveClient {
  const view: ClientView = { room, name, events: [], reconnects: 0 };
  const url = `${base}/sessions/${room}/events`;
  let stopped = false;
  let current: StreamConnection | undefined;
  let open = false;
  const follow = async () => {
    for (let n = 0; n < MAX_CONNECTIONS && !stopped; n++) {
      if (n > 0) view.reconnects++;
      const last = view.events.at(-1)?.id;
      current = openRoomStream(
        url,
        last,
        (e) => view.events.push(e),
        CONNECT_TIMEOUT_MS,
        () => (open = true),
      );
      const drop = dropEveryMs
        ? setTimeout(() => current?.close(), dropEveryMs * (0.5 + Math.random()))
        : undefined;
      await current.ended;
      open = false;
      clearTimeout(drop);
      if (!stopped) await pause(200 + Math.random() * 300);
    }
  };
  const running = follow();
  return {
    view,
    get open() {
      return open;
    },
    async stop() {
      stopped = true;
      current?.close();
      await running;
    },
  };
}

/** Waits (bounded) until the client has the event with this id. */
export async function catchUp(client: LiveClient, id: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (client.view.events.some((e) => e.id === id)) return true;
    await pause(100);
  }
  return false;
}

/** Reads one page: what came after `after`, until the stream has been quiet for `quietMs`. */
async function readPage(url: string, after: string, quietMs: number): Promise<RoomEvent[]> {
  const got: RoomEvent[] = [];
  let lastAt = Date.now();
  const stream = openRoomStream(
    url,
    after,
    (e) => {
      got.push(e);
      lastAt = Date.now();
    },
    CONNECT_TIMEOUT_MS,
  );
  const deadline = Date.now() + 30_000;
  let done = false;
  void stream.ended.then(() => (done = true));
  while (!done && Date.now() - lastAt < quietMs && Date.now() < deadline) await pause(100);
  stream.close();
  return got;
}

/**
 * The room's whole history from its first event: replayed with Last-Event-ID page after page (a replay
 * sends at most 1,000 events) until a page brings nothing new.
 */
export async function readHistory(base: string, room: string, first: RoomEvent): Promise<RoomEvent[]> {
  const url = `${base}/sessions/${room}/events`;
  const history = [first];
  for (let page = 0; page < 100; page++) {
    const got = await readPage(url, history.at(-1)!.id, 1_500);
    if (got.length === 0) return history;
    history.push(...got);
  }
  return history;
}
