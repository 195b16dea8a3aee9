import { until } from '@pp/testing';
import { randomUUID } from 'node:crypto';
import { rooms } from './support/room.ts';
import { asService, asUser, startSessions, type SessionsHarness } from './support/sessions-harness.ts';

let h: SessionsHarness;
let r: ReturnType<typeof rooms>;
beforeAll(async () => {
  h = await startSessions();
  r = rooms(h);
});
afterAll(() => h.stop());

const round = (sessionId: string, storyId: string, action: 'seal' | 'reset', headers = asService()) =>
  h.client.post(`/internal/sessions/${sessionId}/stories/${storyId}/${action}`, { headers });
const currentStory = async (code: string) =>
  (await h.client.get(`/sessions/${code}`)).body.session.current_story;

describe('rounds: seal', () => {
  it('hands over every vote with its voter and refuses votes after it with 409 story_already_revealed', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const cleo = await r.join(session.code, 'Cleo');
    const story = await r.openStory(session);
    await r.vote(session.code, bob.id, '5');
    await r.vote(session.code, cleo.id, '8');
    const sealed = await round(session.id, story.id, 'seal');
    expect(sealed.status).toBe(200);
    expect(sealed.body.votes).toEqual([
      {
        participant: { id: bob.id, name: 'Bob', role: 'participant' },
        value: '5',
        updated_at: expect.any(String),
      },
      {
        participant: { id: cleo.id, name: 'Cleo', role: 'participant' },
        value: '8',
        updated_at: expect.any(String),
      },
    ]);
    expect(sealed.body.stats).toEqual({ votes_cast: 2, total_participants: 2, all_voted: true });
    const late = await r.vote(session.code, bob.id, '13');
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('story_already_revealed');
    const again = await round(session.id, story.id, 'seal');
    expect(again.body.votes).toEqual(sealed.body.votes);
  });

  it('seals a story sessions has not heard of yet, with no votes', async () => {
    const session = await r.createSession('ann');
    const res = await round(session.id, randomUUID(), 'seal');
    expect(res.status).toBe(200);
    expect(res.body.votes).toEqual([]);
  });

  it('answers 404 for an unknown session or a story of another session, and 403 to a user', async () => {
    const session = await r.createSession('ann');
    const other = await r.createSession('ann');
    const story = await r.openStory(other);
    expect((await round(randomUUID(), story.id, 'seal')).status).toBe(404);
    const crossed = await round(session.id, story.id, 'seal');
    expect(crossed.status).toBe(404);
    expect(crossed.body.error.code).toBe('story_not_found');
    expect((await round(other.id, story.id, 'seal', asUser('ann'))).status).toBe(403);
    expect((await round(other.id, 'not-a-uuid', 'seal')).status).toBe(422);
  });

  it('orders every vote racing a seal: the last accepted vote is the sealed one, and every later one is refused', async () => {
    const cards = ['1', '2', '3', '5'];
    const runRound = async () => {
      const session = await r.createSession('ann');
      const voters = await Promise.all(Array.from({ length: 5 }, (_, i) => r.join(session.code, `P${i}`)));
      const story = await r.openStory(session);
      // Each voter keeps changing its vote until the seal refuses it.
      const voteUntilRefused = async (id: number) => {
        let lastAccepted: string | undefined;
        for (let n = 0; n < 500; n++) {
          const value = cards[n % cards.length]!;
          const res = await r.vote(session.code, id, value);
          if (res.status !== 200) return { lastAccepted, refusal: res.body.error.code };
          lastAccepted = value;
        }
        throw new Error('never refused');
      };
      const seal = new Promise((resolve) => setTimeout(resolve, 15)).then(() =>
        round(session.id, story.id, 'seal'),
      );
      const [sealed, ...outcomes] = await Promise.all([seal, ...voters.map((v) => voteUntilRefused(v.id))]);
      return { voters, sealed, outcomes };
    };
    const results = await Promise.all(Array.from({ length: 10 }, runRound));
    let accepted = 0;
    for (const { voters, sealed, outcomes } of results) {
      const sealedValues = new Map(
        sealed.body.votes.map((v: { participant: { id: number }; value: string }) => [
          v.participant.id,
          v.value,
        ]),
      );
      outcomes.forEach((outcome, i) => {
        expect(outcome.refusal).toBe('story_already_revealed');
        expect(sealedValues.get(voters[i]!.id)).toBe(outcome.lastAccepted);
        if (outcome.lastAccepted) accepted++;
      });
    }
    expect(accepted).toBeGreaterThan(0);
  });
});

describe('rounds: reset', () => {
  it('deletes the votes and opens the round again (a re-vote after a reveal)', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const story = await r.openStory(session);
    await r.vote(session.code, bob.id, '5');
    await round(session.id, story.id, 'seal');
    const reset = await round(session.id, story.id, 'reset');
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ story_id: story.id, votes_deleted: 1 });
    const revote = await r.vote(session.code, bob.id, '8');
    expect(revote.status).toBe(200);
    expect(revote.body.stats.votes_cast).toBe(1);
    expect(
      (await round(session.id, story.id, 'seal')).body.votes.map((v: { value: string }) => v.value),
    ).toEqual(['8']);
  });
});

describe('rounds: the stories read model', () => {
  const summary = (
    id: string,
    title: string,
    status: 'pending' | 'voting' | 'revealed',
    position: number,
  ) => ({
    id,
    title,
    status,
    position,
  });

  it('follows reveal to the next story, activation and deletion', async () => {
    const session = await r.createSession('ann');
    const ids = { s: session.id, c: session.code };
    const first = await r.openStory(session, 'First', 1);
    const second = summary(randomUUID(), 'Second', 'pending', 2);
    await h.publish('story.created', { session_id: ids.s, session_code: ids.c, story: second });
    await h.publish('story.revealed', {
      session_id: ids.s,
      session_code: ids.c,
      story: {
        ...first,
        status: 'revealed',
        final_estimate: null,
        revealed_at: new Date().toISOString(),
        votes: [],
      },
      next_story_id: second.id,
    });
    expect(
      await until(async () => (await currentStory(ids.c))?.id === second.id && currentStory(ids.c)),
    ).toEqual({
      ...second,
      status: 'voting',
    });
    await h.publish('story.activated', {
      session_id: ids.s,
      session_code: ids.c,
      story: { ...first, status: 'voting' },
      previous_story_id: second.id,
    });
    await until(async () => (await currentStory(ids.c))?.id === first.id);
    await h.publish('story.deleted', {
      session_id: ids.s,
      session_code: ids.c,
      story: { ...first, status: 'voting' },
      next_story_id: second.id,
    });
    await until(async () => (await currentStory(ids.c))?.id === second.id);
  });

  it('keeps a newer state when an older event arrives late, and takes a title change', async () => {
    const session = await r.createSession('ann');
    const ids = { session_id: session.id, session_code: session.code };
    const story = summary(randomUUID(), 'Draft', 'voting', 1);
    await h.publish('story.revealed', {
      ...ids,
      story: {
        ...story,
        status: 'revealed',
        final_estimate: '5',
        revealed_at: new Date().toISOString(),
        votes: [],
      },
      next_story_id: null,
    });
    await h.publish('story.created', { ...ids, story }, new Date(Date.now() - 10_000));
    await h.publish('story.updated', {
      ...ids,
      story: { ...story, title: 'Final title', status: 'revealed' },
      changed: ['title'],
    });
    const stored = () =>
      h.runtime.db
        .fork()
        .getConnection()
        .execute('select title, status, sealed from stories where id = ?', [story.id]) as Promise<unknown[]>;
    // Events are applied in order: once the title has changed, the late story.created has been seen too.
    expect(
      await until(async () => (await stored()).find((s) => (s as { title: string }).title === 'Final title')),
    ).toEqual({
      title: 'Final title',
      status: 'revealed',
      sealed: true,
    });
    expect(await currentStory(session.code)).toBeNull();
  });
});

describe('rounds: stats', () => {
  it('tells another unit the counts as committed, and refuses a user', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    await r.join(session.code, 'Cleo');
    const story = await r.openStory(session);
    await r.vote(session.code, bob.id, '5');
    const path = `/internal/sessions/${session.id}/stories/${story.id}/stats`;
    const res = await h.client.get(path, { headers: asService() });
    expect(res.status).toBe(200);
    expect(res.body.stats).toEqual({ votes_cast: 1, total_participants: 2, all_voted: false });
    expect((await h.client.get(path, { headers: asUser('ann') })).status).toBe(403);
  });
});
