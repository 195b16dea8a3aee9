/**
 * Opening a room in one read: the session, the participants, the stories (from the stories unit,
 * none beside this one here: null), the open round, and where the live stream resumes so that the
 * page misses nothing of what happens after the read.
 */
import { participantTokenKey } from '@pp/contracts';
import { createLogger } from '@pp/logger';
import { openStream, until } from '@pp/testing';
import type { StoriesClient } from '../src/clients/stories.client.ts';
import { roomPosition } from '../src/db/room-event.repository.ts';
import { openRoom } from '../src/use-cases/open-room.use-case.ts';
import { joinLines } from '../src/use-cases/join-session.use-case.ts';
import { voteScenes } from '../src/use-cases/shared/vote-scenes.ts';
import { CommittedRounds } from '../src/use-cases/shared/committed-rounds.ts';
import { rooms } from './support/room.ts';
import { asUser, startSessions, type SessionsHarness } from './support/sessions-harness.ts';

let h: SessionsHarness;
let r: ReturnType<typeof rooms>;
beforeAll(async () => {
  h = await startSessions();
  r = rooms(h);
});
afterAll(() => h.stop());

const streamOf = (code: string, headers: Record<string, string> = {}) =>
  openStream(`${h.url}/sessions/${code}/events`, headers);

describe('opening a room in one read', () => {
  it('gives the session, everyone in the room and the open round: who voted, never what', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const cleo = await r.join(session.code, 'Cleo');
    await r.join(session.code, 'Watcher', { role: 'observer' });
    const story = await r.openStory(session);
    expect((await r.vote(session.code, cleo.id, '8')).status).toBe(200);

    const res = await h.client.get(`/sessions/${session.code.toLowerCase()}/room`);
    expect(res.status).toBe(200);
    expect(res.body.session).toMatchObject({ id: session.id, participants_count: 3 });
    expect(res.body.session.current_story).toMatchObject({ id: story.id, status: 'voting' });
    expect(res.body.session).not.toHaveProperty('owner_id');
    expect(res.body.participants.map((p: { name: string }) => p.name)).toEqual(['Bob', 'Cleo', 'Watcher']);
    expect(res.body.round).toEqual({
      story_id: story.id,
      voted: [cleo.id],
      stats: { votes_cast: 1, total_participants: 2, all_voted: false },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/"value"|token/);
    // No stories unit answers here: the room says so rather than failing.
    expect(res.body.stories).toBeNull();
    expect(res.body.last_event_id).toEqual(expect.any(String));
    expect(bob.id).toBeLessThan(cleo.id);

    const owner = await h.client.get(`/sessions/${session.code}/room`, { headers: asUser('ann') });
    expect(owner.body.session).toHaveProperty('owner_id', 'ann');
    expect((await h.client.get('/sessions/ZZZZZZ/room')).status).toBe(404);
  });

  it('has no round while no story is open', async () => {
    const session = await r.createSession('ann');
    const res = await h.client.get(`/sessions/${session.code}/room`);
    expect(res.body).toMatchObject({ participants: [], round: null });
  });

  it('resumes the stream from the read: what happened after it, not what it already shows', async () => {
    const session = await r.createSession('ann');
    const watching = await streamOf(session.code);
    let resumed: Awaited<ReturnType<typeof streamOf>> | undefined;
    try {
      await r.join(session.code, 'Before');
      // The join is through the live feed: the read shows it.
      await watching.waitFor((e) => e.data.participant?.name === 'Before');
      const read = await h.client.get(`/sessions/${session.code}/room`);
      expect(read.body.participants.map((p: { name: string }) => p.name)).toEqual(['Before']);
      // Someone joins between the read and the stream: the stream resumed from the read gets it.
      await r.join(session.code, 'Between');
      await watching.waitFor((e) => e.data.participant?.name === 'Between');
      resumed = await streamOf(session.code, { 'last-event-id': read.body.last_event_id });
      await r.join(session.code, 'Live');
      await resumed.waitFor((e) => e.data.participant?.name === 'Live');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(resumed.events.map((e) => e.data.participant?.name)).toEqual(['Between', 'Live']);
      const ids = watching.events.map((e) => e.id);
      expect(resumed.events.map((e) => e.id)).toEqual(ids.slice(1));
    } finally {
      await watching.close();
      await resumed?.close();
    }
  });

  it('resumes from where the record ends when the live feed is not up yet (a replica starting)', async () => {
    const session = await r.createSession('ann');
    const watching = await streamOf(session.code);
    try {
      await r.join(session.code, 'Before');
      const joined = await watching.waitFor((e) => e.data.participant?.name === 'Before');
      const em = h.runtime.db.fork();
      const place = await until(() => roomPosition(em, session.id, joined.id));
      const ctx = {
        em,
        publish: () => undefined,
        now: () => new Date(),
        newCode: () => 'UNUSED',
        voteScenes: voteScenes(),
        committedRounds: new CommittedRounds(),
        stories: { roomStories: async () => [] } as unknown as StoriesClient,
        logger: createLogger({ name: 'room-read-test', level: 'silent' }),
        roomMaxParticipants: 1_000,
        joins: joinLines(),
        participantTokenKey: participantTokenKey('internal-signing-key-for-room-read-tests-0123456789'),
      };
      const read = await openRoom(ctx, session.code, undefined, undefined);
      expect(read.lastEventId).toBe(`at:${place}`);
      expect(read.participants.map((p) => p.name)).toEqual(['Before']);
    } finally {
      await watching.close();
    }
  });
});
