/**
 * The live room with two replicas of the sessions and stories units behind round-robin proxies, the
 * gateway in front: a client that reconnects with Last-Event-ID, on whichever replica, gets exactly
 * what a stream open all along got after its last event, in the same order, nothing twice.
 */
import { startPlatform, type Platform } from './support/platform.ts';

describe('live room replay across replicas', () => {
  let p: Platform;
  let owner: string;
  beforeAll(async () => {
    p = await startPlatform({ replicas: 2 });
    owner = await p.signUp('Rhea');
  });
  afterAll(() => p.stop());

  it('replays what each reconnecting client missed, from any event of a busy moment, on any replica', async () => {
    const created = await p.client.post('/sessions', { body: { name: 'Sprint' }, token: owner });
    expect(created.status).toBe(201);
    const code = created.body.session.code as string;
    const live = await p.room(code);
    try {
      // Stories (the stories unit's events) and joins (the sessions unit's), at once, on both replicas.
      // A story change that waited its turn too long on a busy machine is refused with 503 having done
      // nothing, and a client tries again, as this one does (the burst is still one busy moment).
      const addStory = async (title: string) => {
        for (let attempt = 1; ; attempt++) {
          const res = await p.client.post(`/sessions/${code}/stories`, { body: { title }, token: owner });
          if (res.status !== 503 || attempt === 5) return res;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      };
      const answers = await Promise.all([
        ...Array.from({ length: 10 }, (_, i) => addStory(`Story ${i}`)),
        ...Array.from({ length: 10 }, (_, i) =>
          p.client.post(`/sessions/${code}/join`, { body: { name: `Guest ${i}` } }),
        ),
      ]);
      // A failed answer is reported with its body (which unit, which code), not only its status.
      const failed = answers.filter((a) => a.status >= 300).map((a) => ({ status: a.status, body: a.body }));
      expect(failed).toEqual([]);
      expect(answers.map((a) => a.status).sort()).toEqual([...Array(10).fill(200), ...Array(10).fill(201)]);
      await live.waitFor(() => live.events.length >= 20);
      const ids = live.events.map((e) => e.id);
      // Each reconnect goes to the next replica in turn: both get clients from every point.
      const again = [];
      for (const id of ids) again.push(await p.room(code, { 'last-event-id': id }));
      try {
        const marker = await p.client.post(`/sessions/${code}/join`, { body: { name: 'Marker' } });
        expect(marker.status).toBe(200);
        const last = await live.waitFor((e) => e.data.participant?.name === 'Marker');
        for (const stream of again) await stream.waitFor((e) => e.id === last.id);
        await new Promise((resolve) => setTimeout(resolve, 200));
        const all = live.events.map((e) => e.id);
        again.forEach((stream, k) =>
          expect({ from: k, got: stream.events.map((e) => e.id) }).toEqual({
            from: k,
            got: all.slice(k + 1),
          }),
        );
      } finally {
        await Promise.all(again.map((stream) => stream.close()));
      }
    } finally {
      await live.close();
    }
  }, 60_000);
});
