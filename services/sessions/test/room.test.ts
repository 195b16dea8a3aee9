import { openStream, until } from '@pp/testing';
import { randomUUID } from 'node:crypto';
import { makeEvent } from '@pp/contracts';
import { subjectFor } from '@pp/events';
import { jetstream } from '@nats-io/jetstream';
import { registry } from '@pp/http';
import { forgetOldRoomEvents, keepForRoom } from '../src/use-cases/shared/room-history.ts';
import { rooms } from './support/room.ts';
import { asUser, startSessions, type SessionsHarness } from './support/sessions-harness.ts';

let h: SessionsHarness;
let r: ReturnType<typeof rooms>;
beforeAll(async () => {
  h = await startSessions();
  r = rooms(h);
});
afterAll(() => h.stop());

const countOf = async (table: 'room_events' | 'room_positions', sessionId: string) => {
  const rows = (await h.runtime.db
    .fork()
    .getConnection()
    .execute(`select count(*)::int as n from ${table} where session_id = ?`, [sessionId])) as Array<{
    n: number;
  }>;
  return rows[0]!.n;
};
/** How many of the session's events the room has recorded for reconnecting clients. */
const recorded = (sessionId: string) => countOf('room_events', sessionId);
/** How many of them have their place in the bus's order (known once they are published). */
const placed = (sessionId: string) => countOf('room_positions', sessionId);

const streamOf = (code: string, headers: Record<string, string> = {}) =>
  openStream(`${h.url}/sessions/${code}/events`, headers);

/** How many live room streams this process has open. */
const streamsOpen = async () =>
  (await registry.getSingleMetric('room_streams_open')!.get()).values[0]?.value ?? 0;

/** A client that saw someone join, then went away: the id of the last event it saw. */
async function lastSeenAfterJoin(code: string) {
  const first = await streamOf(code);
  await r.join(code, 'Before');
  const seen = await first.waitFor((e) => e.event === 'participant.joined');
  await first.close();
  return seen;
}

describe('live room', () => {
  it('streams joins, stories, votes (who and stats, never the value), reveals and session updates', async () => {
    const session = await r.createSession('ann', {
      voting_system: 'custom',
      custom_deck_values: ['kiwi7', 'zebra9'],
    });
    const stream = await streamOf(session.code.toLowerCase());
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
      const bob = await r.join(session.code, 'Bob');
      const story = await r.openStory(session);
      await r.vote(session.code, bob.id, 'zebra9');
      await h.client.patch(`/sessions/${session.code}`, {
        body: { name: 'Renamed' },
        headers: asUser('ann'),
      });

      const joined = await stream.waitFor((e) => e.event === 'participant.joined');
      expect(joined.data).toMatchObject({
        type: 'participant.joined',
        participant: { id: bob.id, name: 'Bob' },
      });
      await stream.waitFor((e) => e.event === 'story.created' && e.data.story.id === story.id);
      const cast = await stream.waitFor((e) => e.event === 'vote.cast');
      expect(cast.data).toMatchObject({
        story_id: story.id,
        participant: { id: bob.id, name: 'Bob' },
        stats: { votes_cast: 1, total_participants: 1, all_voted: true },
      });
      const updated = await stream.waitFor((e) => e.event === 'session.updated');
      expect(updated.data).toMatchObject({ changed: ['name'], session: { name: 'Renamed' } });
      expect(updated.data.session).not.toHaveProperty('owner_id');
      // Only the deck (in session.updated) names the cards before the reveal.
      const beforeReveal = stream.events.filter((e) => e.event !== 'session.updated');
      expect(JSON.stringify(beforeReveal)).not.toMatch(/zebra9|kiwi7|"value"/);

      await h.publish('story.revealed', {
        session_id: session.id,
        session_code: session.code,
        story: {
          ...story,
          status: 'revealed',
          final_estimate: 'zebra9',
          revealed_at: new Date().toISOString(),
          votes: [{ participant: { id: bob.id, name: 'Bob' }, value: 'zebra9' }],
        },
        next_story_id: null,
      });
      const revealed = await stream.waitFor((e) => e.event === 'story.revealed');
      expect(revealed.data.story).toMatchObject({ final_estimate: 'zebra9', votes: [{ value: 'zebra9' }] });
      expect(stream.events.every((e) => typeof e.id === 'string' && e.id.length === 36)).toBe(true);
    } finally {
      await stream.close();
    }
  });

  it('does not mix rooms: a stream sees only its own session', async () => {
    const mine = await r.createSession('ann');
    const other = await r.createSession('ann');
    const stream = await streamOf(mine.code);
    try {
      await r.join(other.code, 'Elsewhere');
      await r.join(mine.code, 'Here');
      await stream.waitFor((e) => e.event === 'participant.joined');
      expect(stream.events.map((e) => e.data.participant?.name)).toEqual(['Here']);
    } finally {
      await stream.close();
    }
  });

  it('gives a client that reconnects with Last-Event-ID what it missed, in order, and nothing twice', async () => {
    const session = await r.createSession('ann');
    const seen = await lastSeenAfterJoin(session.code);

    await r.join(session.code, 'Missed 1');
    await r.join(session.code, 'Missed 2');
    await until(async () => (await recorded(session.id)) === 3);
    const again = await streamOf(session.code, { 'last-event-id': seen.id });
    try {
      await r.join(session.code, 'Live');
      await again.waitFor((e) => e.data.participant?.name === 'Live');
      expect(again.events.map((e) => e.data.participant.name)).toEqual(['Missed 1', 'Missed 2', 'Live']);
    } finally {
      await again.close();
    }
  });

  it('replays an event recorded with its change only once it is published, and sends it once', async () => {
    const session = await r.createSession('ann');
    const seen = await lastSeenAfterJoin(session.code);
    // An event of this unit is recorded with its change and published a moment later: a client that
    // reconnects in between gets it live, once.
    const em = h.runtime.db.fork();
    const story = makeEvent(
      'story.created',
      {
        session_id: session.id,
        session_code: session.code,
        story: { id: randomUUID(), title: 'Recorded first', status: 'pending', position: 1 },
      },
      { source: 'sessions' },
    );
    keepForRoom(em, story);
    await em.flush();
    expect(await recorded(session.id)).toBe(2);
    const again = await streamOf(session.code, { 'last-event-id': seen.id });
    try {
      await jetstream(h.runtime.nc).publish(
        subjectFor(h.runtime.bus, 'story.created'),
        JSON.stringify(story),
        {
          msgID: story.id,
        },
      );
      const published = await again.waitFor((e) => e.id === story.id);
      expect(published.data.story.title).toBe('Recorded first');
      await r.join(session.code, 'Last');
      await again.waitFor((e) => e.data.participant?.name === 'Last');
      expect(again.events.map((e) => e.data.participant?.name ?? e.data.story.title)).toEqual([
        'Recorded first',
        'Last',
      ]);
    } finally {
      await again.close();
    }
  });

  it('keeps a burst of story events that arrive together once each, in the order they were published', async () => {
    const session = await r.createSession('ann');
    const seen = await lastSeenAfterJoin(session.code);

    const titles = Array.from({ length: 30 }, (_, i) => `Burst ${i}`);
    // Published back to back, without waiting for each: they reach the consumer together.
    await Promise.all(
      titles.map((title, i) =>
        h.publish('story.created', {
          session_id: session.id,
          session_code: session.code,
          story: { id: randomUUID(), title, status: 'pending', position: i + 1 },
        }),
      ),
    );
    await until(async () => (await recorded(session.id)) === 1 + titles.length);
    const again = await streamOf(session.code, { 'last-event-id': seen.id });
    try {
      await again.waitFor((e) => e.data.story?.title === titles.at(-1));
      expect(again.events.map((e) => e.data.story.title)).toEqual(titles);
    } finally {
      await again.close();
    }
  });

  it('replays in the order the events went out live, not the order they were recorded', async () => {
    const session = await r.createSession('ann');
    const seen = await lastSeenAfterJoin(session.code);
    const live = await streamOf(session.code, { 'last-event-id': seen.id });
    try {
      // This unit's event is recorded with its change; before it is published, another unit's event
      // goes out and is recorded: recorded first, it goes out live second.
      const em = h.runtime.db.fork();
      const own = makeEvent(
        'participant.joined',
        {
          session_id: session.id,
          session_code: session.code,
          participant: { id: 9001, name: 'Own', role: 'participant' },
        },
        { source: 'sessions' },
      );
      keepForRoom(em, own);
      await em.flush();
      const other = await h.publish('story.created', {
        session_id: session.id,
        session_code: session.code,
        story: { id: randomUUID(), title: 'Other', status: 'pending', position: 1 },
      });
      await live.waitFor((e) => e.id === other.id);
      await until(async () => (await placed(session.id)) === 2);
      await jetstream(h.runtime.nc).publish(subjectFor(h.runtime.bus, own.type), JSON.stringify(own), {
        msgID: own.id,
      });
      await live.waitFor((e) => e.id === own.id);
      expect(live.events.map((e) => e.id)).toEqual([other.id, own.id]);

      // Clients that saw the first join, or also the other unit's event, come back.
      const [fromJoin, fromOther] = await Promise.all([
        streamOf(session.code, { 'last-event-id': seen.id }),
        streamOf(session.code, { 'last-event-id': other.id }),
      ]);
      try {
        await fromJoin.waitFor((e) => e.id === own.id);
        await fromOther.waitFor((e) => e.id === own.id);
        expect(fromJoin.events.map((e) => e.id)).toEqual([other.id, own.id]);
        expect(fromOther.events.map((e) => e.id)).toEqual([own.id]);
      } finally {
        await Promise.all([fromJoin.close(), fromOther.close()]);
      }
    } finally {
      await live.close();
    }
  });

  it('replays exactly what a reconnecting client missed, from any event of a busy moment', async () => {
    const session = await r.createSession('ann');
    const live = await streamOf(session.code);
    try {
      // Another unit's events and this unit's own, published at once by different connections: the
      // order they reach a subscriber can differ from the order they are recorded in.
      await Promise.all([
        ...Array.from({ length: 12 }, (_, i) =>
          h.publish('story.created', {
            session_id: session.id,
            session_code: session.code,
            story: { id: randomUUID(), title: `Story ${i}`, status: 'pending', position: i + 1 },
          }),
        ),
        ...Array.from({ length: 12 }, (_, i) => r.join(session.code, `Guest ${i}`)),
      ]);
      await live.waitFor(() => live.events.length === 24);
      const ids = live.events.map((e) => e.id);
      // A client that went away after each one of them comes back.
      const again = await Promise.all(ids.map((id) => streamOf(session.code, { 'last-event-id': id })));
      try {
        await r.join(session.code, 'Marker');
        const marker = await live.waitFor((e) => e.data.participant?.name === 'Marker');
        for (const stream of again) await stream.waitFor((e) => e.id === marker.id);
        await new Promise((resolve) => setTimeout(resolve, 100));
        again.forEach((stream, k) =>
          expect({ from: k, got: stream.events.map((e) => e.id) }).toEqual({
            from: k,
            got: [...ids.slice(k + 1), marker.id],
          }),
        );
      } finally {
        await Promise.all(again.map((stream) => stream.close()));
      }
    } finally {
      await live.close();
    }
  });

  it('replays missed votes (with their counts, never their value), stories and session updates', async () => {
    const session = await r.createSession('ann', {
      voting_system: 'custom',
      custom_deck_values: ['ox4', 'yak8'],
    });
    const first = await streamOf(session.code);
    const bob = await r.join(session.code, 'Bob');
    const seen = await first.waitFor((e) => e.event === 'participant.joined');
    await first.close();

    await r.join(session.code, 'Cid');
    const story = await r.openStory(session);
    // The stories unit's event is kept by a consumer: the room has it before the vote that follows.
    await until(async () => (await recorded(session.id)) === 3);
    expect((await r.vote(session.code, bob.id, 'yak8')).status).toBe(200);
    await h.client.patch(`/sessions/${session.code}`, { body: { name: 'Renamed' }, headers: asUser('ann') });
    // Written with the changes themselves: there before any reconnect.
    expect(await recorded(session.id)).toBe(5);

    const again = await streamOf(session.code, { 'last-event-id': seen.id });
    try {
      await again.waitFor((e) => e.event === 'session.updated');
      expect(again.events.map((e) => e.event)).toEqual([
        'participant.joined',
        'story.created',
        'vote.cast',
        'session.updated',
      ]);
      expect(again.events[2]!.data).toMatchObject({
        story_id: story.id,
        participant: { id: bob.id, name: 'Bob' },
        stats: { votes_cast: 1, total_participants: 2, all_voted: false },
      });
      expect(JSON.stringify(again.events.slice(0, 3))).not.toMatch(/yak8|"value"/);
    } finally {
      await again.close();
    }
  });

  it('shows someone leaving and a role changing', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const cy = await r.join(session.code, 'Cy');
    const stream = await streamOf(session.code);
    try {
      const owner = { headers: asUser('ann') };
      await h.client.patch(`/sessions/${session.code}/participants/${cy.id}`, {
        body: { role: 'observer' },
        ...owner,
      });
      await h.client.delete(`/sessions/${session.code}/participants/${bob.id}`, owner);
      const left = await stream.waitFor((e) => e.event === 'participant.left');
      expect(left.data.participant).toEqual({ id: bob.id, name: 'Bob', role: 'participant' });
      const updated = stream.events.find((e) => e.event === 'participant.updated');
      expect(updated?.data).toMatchObject({
        participant: { id: cy.id, role: 'observer' },
        previous_role: 'participant',
      });
    } finally {
      await stream.close();
    }
  });

  it('lets room history older than the kept time go', async () => {
    const session = await r.createSession('ann');
    await r.join(session.code, 'Old news');
    expect(await recorded(session.id)).toBe(1);
    await until(async () => (await placed(session.id)) === 1);
    const inADay = new Date(Date.now() + 24 * 3600_000 + 1_000);
    expect(await forgetOldRoomEvents(h.runtime.db.fork(), inADay, 24 * 3600_000)).toBeGreaterThanOrEqual(1);
    expect(await recorded(session.id)).toBe(0);
    expect(await placed(session.id)).toBe(0);
  });

  it('answers 404 with the error envelope for an unknown code', async () => {
    const res = await h.client.get('/sessions/ZZZZZZ/events');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('session_not_found');
  });

  it('answers a HEAD at once with the headers of the stream and no body, and opens no stream', async () => {
    const session = await r.createSession('ann');
    const before = await streamsOpen();
    const res = await fetch(`${h.url}/sessions/${session.code}/events`, {
      method: 'HEAD',
      signal: AbortSignal.timeout(2_000),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await res.text()).toBe('');
    // (A stream of an earlier test may close meanwhile: fewer is fine, more is not.)
    expect(await streamsOpen()).toBeLessThanOrEqual(before);

    // The headers of a GET, but for those each answer has of its own (its date, its id, its body's framing).
    const stream = await streamOf(session.code);
    await stream.close();
    const own = new Set(['date', 'x-request-id', 'transfer-encoding']);
    const headersOf = (headers: Headers) => [...headers].filter(([name]) => !own.has(name));
    expect(headersOf(res.headers)).toEqual(headersOf(stream.headers));
  });

  it('answers a HEAD for an unknown code 404 at once', async () => {
    const res = await fetch(`${h.url}/sessions/ZZZZZZ/events`, {
      method: 'HEAD',
      signal: AbortSignal.timeout(2_000),
    });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('');
  });

  it('ignores a Last-Event-ID it does not know', async () => {
    const session = await r.createSession('ann');
    const stream = await streamOf(session.code, { 'last-event-id': randomUUID() });
    try {
      await r.join(session.code, 'Fresh');
      await stream.waitFor((e) => e.event === 'participant.joined');
      expect(stream.events).toHaveLength(1);
    } finally {
      await stream.close();
    }
  });

  it('ends open streams when the service stops, so the stop does not wait for them', async () => {
    const other = await startSessions();
    let stopped = false;
    try {
      const session = await rooms(other).createSession('ann');
      const stream = await openStream(`${other.url}/sessions/${session.code}/events`);
      expect(stream.status).toBe(200);
      const started = Date.now();
      const stopping = other.stop().then(() => (stopped = true));
      await stream.ended;
      await stopping;
      expect(stopped).toBe(true);
      // A stop that waited for its streams would never end (a stream ends only when its client goes):
      // well under the test's own timeout, with room for a loaded machine's stop of the consumers.
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      if (!stopped) await other.stop();
    }
  });
});
