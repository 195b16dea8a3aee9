import { jest } from '@jest/globals';
import { readRoom } from './endpoints.ts';
import { openRoomStream } from './room-stream.ts';
import { writeSeat } from '../storage.ts';

/** What the browser would send: the participant token header of each request. */
const sent: Array<[string, string | undefined]> = [];
beforeAll(() => {
  const kept = new Map<string, string>();
  Object.assign(globalThis, {
    localStorage: {
      getItem: (k: string) => kept.get(k) ?? null,
      setItem: (k: string, v: string) => void kept.set(k, v),
      removeItem: (k: string) => void kept.delete(k),
    },
    window: { addEventListener: () => undefined, removeEventListener: () => undefined },
    navigator: { onLine: true },
  });
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
    sent.push([String(url), (init?.headers as Record<string, string>)['x-participant-token']]);
    return new Response(JSON.stringify({ success: true, session: {}, participants: [], stories: [] }), {
      headers: { 'content-type': 'application/json' },
    });
  });
});
afterAll(() => jest.restoreAllMocks());

const room = async (code: string) => {
  sent.length = 0;
  await readRoom(code, null);
  const stream = openRoomStream(`/sessions/${code}/events`, {
    onEvent: () => undefined,
    onStatus: () => undefined,
    onResumed: () => undefined,
  });
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
