/**
 * One room followed on two replicas of the sessions unit (and through the gateway): every client gets
 * every event of the room in the same order with the same ids, whichever replica holds its stream; a
 * client that moves to the other replica with Last-Event-ID gets exactly what it missed; a client that
 * stops reading is dropped while the others go on.
 */
import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { makeEvent } from '@pp/contracts';
import { connectNats, eventBus, subjectFor } from '@pp/events';
import { registry } from '@pp/http';
import { createLogger } from '@pp/logger';
import { openStream, testNatsUrl, until } from '@pp/testing';
import { startPlatform, type Platform } from './support/platform.ts';
import { stalledClient } from './support/stalled-client.ts';

/** What a stream may leave unsent before it is dropped, small here so that a test fills it quickly. */
const MAX_UNSENT = 64 * 1024;
type Stream = Awaited<ReturnType<typeof openStream>>;

describe('a room on two replicas', () => {
  let p: Platform;
  let owner: string;
  let a: string;
  let b: string;
  beforeAll(async () => {
    p = await startPlatform({
      replicas: 2,
      sessionsEnv: { ROOM_STREAM_MAX_UNSENT_BYTES: String(MAX_UNSENT) },
    });
    owner = await p.signUp('Rhea');
    [a, b] = p.sessionsReplicas as [string, string];
  });
  afterAll(() => p.stop());

  const newRoom = async () => {
    const created = await p.client.post('/sessions', { body: { name: 'Fan-out' }, token: owner });
    return created.body.session as { id: string; code: string };
  };
  const on = (replica: string, code: string, headers: Record<string, string> = {}) =>
    openStream(`${replica}/sessions/${code}/events`, headers);
  const closeAll = (streams: Stream[]) => Promise.all(streams.map((s) => s.close()));

  it('shows join, vote (never its value) and reveal to clients of both replicas, in one order with the same ids', async () => {
    const { code } = await newRoom();
    const story = await p.client.post(`/sessions/${code}/stories`, {
      body: { title: 'Login' },
      token: owner,
    });
    expect(story.status).toBe(201);
    const streams = [on(a, code), on(a, code), on(b, code), on(b, code), p.room(code), p.room(code)];
    const clients = await Promise.all(streams);
    try {
      const bob = await p.client.post(`/sessions/${code}/join`, { body: { name: 'Bob' } });
      const vote = await p.client.post(`/sessions/${code}/vote`, {
        body: { participant_id: bob.body.participant.id, vote: '13' },
        headers: { 'x-participant-token': bob.body.participant.token },
      });
      expect(vote.status).toBe(200);
      const revealed = await p.client.post(`/stories/${story.body.story.id}/reveal`, { token: owner });
      expect(revealed.status).toBe(200);
      for (const c of clients) await c.waitFor((e) => e.event === 'story.revealed');

      // The story's own story.created may reach the room after some streams opened and before others
      // did (its relay runs a moment after the 201): a stream opened after it (with no Last-Event-ID)
      // does not have it, and one that has it has it first, with the one id every such client has.
      const created = clients.flatMap((c) => c.events.filter((e) => e.event === 'story.created'));
      for (const c of clients)
        if (c.events.some((e) => e.event === 'story.created'))
          expect(c.events[0]!.event).toBe('story.created');
      expect(new Set(created.map((e) => e.id)).size).toBeLessThanOrEqual(1);
      const seen = clients.map((c) =>
        c.events.filter((e) => e.event !== 'story.created').map((e) => `${e.event} ${e.id}`),
      );
      for (const other of seen.slice(1)) expect(other).toEqual(seen[0]);
      expect(clients[0]!.events.map((e) => e.event).filter((type) => type !== 'story.created')).toEqual([
        'participant.joined',
        'vote.cast',
        'story.revealed',
      ]);
      // The room read has the stories from the stories unit, and who voted.
      const read = await p.client.get(`/sessions/${code}/room`);
      expect(read.body.stories).toMatchObject([{ title: 'Login', status: 'revealed', final_estimate: '13' }]);
      const cast = clients[2]!.events.find((e) => e.event === 'vote.cast')!;
      expect(cast.data).toMatchObject({ participant: { name: 'Bob' }, stats: { votes_cast: 1 } });
      expect(JSON.stringify(cast.data)).not.toMatch(/"13"|"value"/);
    } finally {
      await closeAll(clients);
    }
  }, 60_000);

  it('gives a client that moves to the other replica with Last-Event-ID exactly what it missed', async () => {
    const { code } = await newRoom();
    const all = await on(a, code);
    const leaving = await on(a, code);
    const read = await p.client.get(`/sessions/${code}/room`);
    expect(read.status).toBe(200);
    let moved: Stream | undefined;
    let fromRead: Stream | undefined;
    try {
      for (const name of ['One', 'Two']) await p.client.post(`/sessions/${code}/join`, { body: { name } });
      const last = await leaving.waitFor((e) => e.data.participant?.name === 'Two');
      await leaving.close();
      for (const name of ['Three', 'Four', 'Five'])
        await p.client.post(`/sessions/${code}/join`, { body: { name } });
      await all.waitFor((e) => e.data.participant?.name === 'Five');
      moved = await on(b, code, { 'last-event-id': last.id });
      fromRead = await on(b, code, { 'last-event-id': read.body.last_event_id });
      await p.client.post(`/sessions/${code}/join`, { body: { name: 'Marker' } });
      await all.waitFor((e) => e.data.participant?.name === 'Marker');
      await moved.waitFor((e) => e.data.participant?.name === 'Marker');
      await fromRead.waitFor((e) => e.data.participant?.name === 'Marker');
      await new Promise((resolve) => setTimeout(resolve, 200));

      const ids = all.events.map((e) => e.id);
      expect(moved.events.map((e) => e.data.participant.name)).toEqual(['Three', 'Four', 'Five', 'Marker']);
      expect(moved.events.map((e) => e.id)).toEqual(ids.slice(2));
      expect(fromRead.events.map((e) => e.id)).toEqual(ids);
    } finally {
      await closeAll([all, ...(moved ? [moved] : []), ...(fromRead ? [fromRead] : [])]);
    }
  }, 60_000);

  it('drops a client that stops reading once its unsent events pass the limit, while the others get every event', async () => {
    const { id, code } = await newRoom();
    const stalled = await stalledClient(`${a}/sessions/${code}/events`);
    const readers = await Promise.all([on(a, code), on(b, code), p.room(code)]);
    const dropped = async () =>
      (await registry.getSingleMetric('room_streams_dropped_total')?.get())?.values[0]?.value ?? 0;
    const droppedBefore = await dropped();
    // Stories with long titles, as the stories unit would announce them, many and fast: megabytes
    // that a client that reads nothing cannot take.
    const nc = await connectNats({
      url: testNatsUrl(),
      name: 'fan-out-test',
      logger: createLogger({ name: 'fan-out-test', level: 'silent' }),
    });
    const COUNT = 400;
    try {
      const js = jetstream(nc);
      const subject = subjectFor(eventBus(p.prefix), 'story.created');
      for (let n = 1; n <= COUNT; n++) {
        const story = {
          id: randomUUID(),
          title: `${n} ${'x'.repeat(16_000)}`,
          status: 'pending',
          position: n,
        };
        const event = makeEvent(
          'story.created',
          { session_id: id, session_code: code, story: story as never },
          { source: 'stories' },
        );
        await js.publish(subject, JSON.stringify(event), { msgID: event.id });
      }
      for (const r of readers)
        await r.waitFor((e) => e.event === 'story.created' && e.data.story.position === COUNT, 30_000);
      for (const r of readers) {
        expect(r.events.map((e) => e.data.story.position)).toEqual(
          Array.from({ length: COUNT }, (_, i) => i + 1),
        );
      }
      await until(async () => (await dropped()) > droppedBefore);
      const got = await stalled.readNow();
      expect(got.ended).toBe(true);
      expect(got.bytes).toBeLessThan(COUNT * 16_000);
    } finally {
      stalled.stop();
      await nc.close();
      await closeAll(readers);
    }
  }, 120_000);
});
