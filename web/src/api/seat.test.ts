import { jest } from '@jest/globals';
import { openRoomStream } from './room-stream.ts';
import { seatTokenOf } from './seat.ts';
import { writeSeat } from '../storage.ts';
import type * as Endpoints from './endpoints.ts';

// The API client is made for the page's origin when loaded: loaded once the page's globals are set.
let readRoom: typeof Endpoints.readRoom;

/** What the browser would send: the participant token header of each request. */
const sent: Array<[string, string | undefined]> = [];
beforeAll(async () => {
  const kept = new Map<string, string>();
  Object.assign(globalThis, {
    localStorage: {
      getItem: (k: string) => kept.get(k) ?? null,
      setItem: (k: string, v: string) => void kept.set(k, v),
      removeItem: (k: string) => void kept.delete(k),
    },
    window: { addEventListener: () => undefined, removeEventListener: () => undefined },
    navigator: { onLine: true },
    location: { origin: 'http://room.test' },
  });
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    // The typed client sends a Request; the live stream, a URL and its init.
    const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
    const url = input instanceof Request ? new URL(input.url).pathname : String(input);
    sent.push([url, headers.get('x-participant-token') ?? undefined]);
    return new Response(JSON.stringify({ success: true, session: {}, participants: [], stories: [] }), {
      headers: { 'content-type': 'application/json' },
    });
  });
  ({ readRoom } = await import('./endpoints.ts'));
});
afterAll(() => jest.restoreAllMocks());

const room = async (code: string) => {
  sent.length = 0;
  await readRoom(code, null);
  const stream = openRoomStream(
    `/sessions/${code}/events`,
    { onEvent: () => undefined, onStatus: () => undefined, onResumed: () => undefined },
    undefined,
    () => seatTokenOf(code),
  );
  await new Promise((r) => setTimeout(r, 10));
  stream.close();
  return [...sent].sort();
};

describe("the room's requests", () => {
  it('carry the participant token once this browser holds a seat in the room, the live stream too', async () => {
    expect(await room('AB3DEF')).toEqual([
      ['/sessions/AB3DEF/events', undefined],
      ['/sessions/AB3DEF/room', undefined],
    ]);
    writeSeat('AB3DEF', { id: 7, token: 'ppt_seat' });
    expect(await room('AB3DEF')).toEqual([
      ['/sessions/AB3DEF/events', 'ppt_seat'],
      ['/sessions/AB3DEF/room', 'ppt_seat'],
    ]);
    // Another room's requests do not.
    expect((await room('ZZ9ZZZ')).map(([, token]) => token)).toEqual([undefined, undefined]);
  });
});
