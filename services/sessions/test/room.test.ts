import { openStream, until } from '@pp/testing';
import { randomUUID } from 'node:crypto';
import { subjectFor } from '@pp/events';
import { forgetOldRoomEvents } from '../src/use-cases/shared/room-history.ts';
import { rooms } from './support/room.ts';
import { asUser, startSessions, type SessionsHarness } from './support/sessions-harness.ts';

let h: SessionsHarness;
let r: ReturnType<typeof rooms>;
beforeAll(async () => {
  h = await startSessions();
  r = rooms(h);
});
afterAll(() => h.stop());

/** How many of the session's events the room has recorded for reconnecting clients. */
const recorded = async (sessionId: string) => {
  const rows = (await h.runtime.db
    .fork()
    .getConnection()
    .execute('select count(*)::int as n from room_events where session_id = ?', [sessionId])) as Array<{
    n: number;
  }>;
  return rows[0]!.n;
};

const streamOf = (code: string, headers: Record<string, string> = {}) =>
  openStream(`${h.url}/sessions/${code}/events`, headers);

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

  it('does not send an event twice when it comes live after the replay that sent it', async () => {
    const session = await r.createSession('ann');
    const seen = await lastSeenAfterJoin(session.code);
    const story = await h.publish('story.created', {
      session_id: session.id,
      session_code: session.code,
      story: { id: randomUUID(), title: 'Recorded first', status: 'pending', position: 1 },
    });
    await until(async () => (await recorded(session.id)) === 2);
    const again = await streamOf(session.code, { 'last-event-id': seen.id });
    try {
      await again.waitFor((e) => e.id === story.id);
      // Its publication comes after the replay (as an event recorded with its change and published a
      // moment later does): the room sends it once.
      h.runtime.nc.publish(subjectFor(h.runtime.bus, 'story.created'), JSON.stringify(story));
      await r.join(session.code, 'Later');
      const later = await again.waitFor((e) => e.data.participant?.name === 'Later');
      expect(again.events.map((e) => e.id)).toEqual([story.id, later.id]);
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
    const inADay = new Date(Date.now() + 24 * 3600_000 + 1_000);
    expect(await forgetOldRoomEvents(h.runtime.db.fork(), inADay, 24 * 3600_000)).toBeGreaterThanOrEqual(1);
    expect(await recorded(session.id)).toBe(0);
  });

  it('answers 404 with the error envelope for an unknown code', async () => {
    const res = await h.client.get('/sessions/ZZZZZZ/events');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('session_not_found');
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
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      if (!stopped) await other.stop();
    }
  });
});
