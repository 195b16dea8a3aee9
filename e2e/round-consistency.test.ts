/**
 * What a response says has happened, the next request sees: each sequence a fast client (a script,
 * an assistant) runs with no pause, 100 times, through the gateway, with one and with two replicas
 * of the sessions and stories units behind a round-robin proxy. The room's stream gets vote.cast for
 * every vote that was accepted.
 */
import { startPlatform, type Platform } from './support/platform.ts';

const RUNS = 100;

describe.each([1, 2])('round consistency with %i replica(s) of each unit', (replicas) => {
  let p: Platform;
  let owner: string;
  beforeAll(async () => {
    p = await startPlatform({ replicas });
    owner = await p.signUp('Olga');
  });
  afterAll(() => p.stop());

  const as = (token: string) => ({ token });
  const createSession = async () => {
    const res = await p.client.post('/sessions', { body: { name: 'Sprint' }, ...as(owner) });
    expect(res.status).toBe(201);
    return res.body.session as { id: string; code: string };
  };
  const addStory = async (code: string, title: string) => {
    const res = await p.client.post(`/sessions/${code}/stories`, { body: { title }, ...as(owner) });
    expect(res.status).toBe(201);
    return res.body.story as { id: string; status: string };
  };
  const join = async (code: string, name: string) => {
    const res = await p.client.post(`/sessions/${code}/join`, { body: { name } });
    expect(res.status).toBe(200);
    return res.body.participant.id as number;
  };
  const vote = (code: string, participantId: number, value = '5') =>
    p.client.post(`/sessions/${code}/vote`, { body: { participant_id: participantId, vote: value } });
  const currentStory = async (code: string) =>
    (await p.client.get(`/sessions/${code}`)).body.session.current_story?.id ?? null;

  /** A session with one voter, and its room's stream, live once it has shown the join. */
  const room = async () => {
    const session = await createSession();
    const stream = p.room(session.code);
    const open = await stream;
    const voter = await join(session.code, 'Vera');
    await open.waitFor((e) => e.event === 'participant.joined');
    return { session, voter, stream: open };
  };
  /** The stream shows every accepted vote of the story, and no other. */
  const expectVoteCasts = async (stream: Awaited<ReturnType<Platform['room']>>, storyIds: string[]) => {
    const count = (id: string) =>
      stream.events.filter((e) => e.event === 'vote.cast' && e.data.story_id === id).length;
    const expected = new Map<string, number>();
    for (const id of storyIds) expected.set(id, (expected.get(id) ?? 0) + 1);
    for (const [id, n] of expected) await stream.waitFor(() => count(id) >= n);
    const total = stream.events.filter((e) => e.event === 'vote.cast').length;
    expect(total).toBe(storyIds.length);
  };

  it('a vote right after the first story was added counts on that story', async () => {
    let misses = 0;
    for (let i = 0; i < RUNS; i++) {
      const { session, voter, stream } = await room();
      const story = await addStory(session.code, 'First');
      const res = await vote(session.code, voter);
      if (res.status !== 200 || res.body.vote.story_id !== story.id) misses++;
      else await expectVoteCasts(stream, [story.id]);
      await stream.close();
    }
    expect(misses).toBe(0);
    // A hundred rooms, each waiting for its stream to show the join and the vote: about 10 s on a
    // quiet machine, more beside other work.
  }, 90_000);

  it('the lookup right after the first story was added shows it as current', async () => {
    let misses = 0;
    for (let i = 0; i < RUNS; i++) {
      const session = await createSession();
      const story = await addStory(session.code, 'First');
      if ((await currentStory(session.code)) !== story.id) misses++;
    }
    expect(misses).toBe(0);
  });

  it('after an activation, the lookup and a vote are on the activated story', async () => {
    const { session, voter, stream } = await room();
    const stories = [await addStory(session.code, 'A'), await addStory(session.code, 'B')];
    const voted: string[] = [];
    let misses = 0;
    for (let i = 0; i < RUNS; i++) {
      const target = stories[(i + 1) % 2]!;
      const activated = await p.client.post(`/stories/${target.id}/activate`, as(owner));
      expect(activated.status).toBe(200);
      if ((await currentStory(session.code)) !== target.id) misses++;
      const res = await vote(session.code, voter);
      if (res.status !== 200 || res.body.vote.story_id !== target.id) misses++;
      else voted.push(target.id);
    }
    expect(misses).toBe(0);
    await expectVoteCasts(stream, voted);
    await stream.close();
  });

  it('after a reveal, the lookup shows the next story as current', async () => {
    const session = await createSession();
    const stories: string[] = [];
    for (let i = 0; i <= RUNS; i++) stories.push((await addStory(session.code, `Story ${i}`)).id);
    let misses = 0;
    for (let i = 0; i < RUNS; i++) {
      const revealed = await p.client.post(`/stories/${stories[i]}/reveal`, as(owner));
      expect(revealed.status).toBe(200);
      expect(revealed.body.next_story.id).toBe(stories[i + 1]);
      if ((await currentStory(session.code)) !== stories[i + 1]) misses++;
    }
    expect(misses).toBe(0);
  });

  it('a vote right after a reset counts on the reset story, as its only vote', async () => {
    const { session, voter, stream } = await room();
    const story = await addStory(session.code, 'Again and again');
    const voted: string[] = [];
    let misses = 0;
    for (let i = 0; i < RUNS; i++) {
      expect((await vote(session.code, voter, '3')).status).toBe(200);
      voted.push(story.id);
      expect((await p.client.post(`/stories/${story.id}/reveal`, as(owner))).status).toBe(200);
      expect((await p.client.post(`/stories/${story.id}/reset`, as(owner))).status).toBe(200);
      const res = await vote(session.code, voter, '8');
      if (res.status !== 200 || res.body.vote.story_id !== story.id || res.body.stats.votes_cast !== 1)
        misses++;
      else voted.push(story.id);
    }
    expect(misses).toBe(0);
    await expectVoteCasts(stream, voted);
    await stream.close();
  });

  it("the session's activity right after a story change shows it", async () => {
    const misses: string[] = [];
    const activity = async (code: string) =>
      (await p.client.get(`/sessions/${code}/activity?limit=10`, as(owner))).body.activity as Array<{
        id: string;
        type: string;
        data: { story?: { id: string } };
      }>;
    const shows = (events: Awaited<ReturnType<typeof activity>>, type: string, storyId: string) =>
      events.filter((e) => e.type === type && e.data.story?.id === storyId).length === 1;
    for (let i = 0; i < RUNS / 4; i++) {
      const session = await createSession();
      const story = await addStory(session.code, 'Seen at once');
      const added = await activity(session.code);
      if (!shows(added, 'story.created', story.id))
        misses.push(`after the add: ${added.map((e) => e.type).join(', ')}`);
      expect((await p.client.post(`/stories/${story.id}/reveal`, as(owner))).status).toBe(200);
      const after = await activity(session.code);
      if (!shows(after, 'story.revealed', story.id) || !shows(after, 'story.created', story.id))
        misses.push(`after the reveal: ${after.map((e) => e.type).join(', ')}`);
    }
    expect(misses).toEqual([]);
  });

  describe('auto-reveal: what completes the round reveals it before the answer', () => {
    /** An auto-reveal session with stories A and B (A open) and two voters. */
    const autoRoom = async () => {
      const session = await createSession();
      const switched = await p.client.patch(`/sessions/${session.code}`, {
        body: { auto_reveal: true },
        ...as(owner),
      });
      expect(switched.status).toBe(200);
      const a = await addStory(session.code, 'A');
      const b = await addStory(session.code, 'B');
      const voters = [await join(session.code, 'Vi'), await join(session.code, 'Wu')];
      return { session, a: a.id, b: b.id, voters };
    };
    const revealed = async (storyId: string) =>
      (await p.client.get(`/stories/${storyId}`, as(owner))).body.story.status === 'revealed';
    const SOME = RUNS / 4;

    it('the lookup right after the last vote shows the next story, the voted one revealed', async () => {
      let misses = 0;
      for (let i = 0; i < SOME; i++) {
        const { session, a, b, voters } = await autoRoom();
        expect((await vote(session.code, voters[0]!, '3')).status).toBe(200);
        const last = await vote(session.code, voters[1]!, '5');
        expect(last.body.stats.all_voted).toBe(true);
        if ((await currentStory(session.code)) !== b || !(await revealed(a))) misses++;
      }
      expect(misses).toBe(0);
    });

    it('so does removing the voter the round waited for, or making it an observer', async () => {
      let misses = 0;
      for (let i = 0; i < SOME; i++) {
        const { session, a, b, voters } = await autoRoom();
        expect((await vote(session.code, voters[0]!)).status).toBe(200);
        const change =
          i % 2 === 0
            ? await p.client.delete(`/sessions/${session.code}/participants/${voters[1]}`, as(owner))
            : await p.client.patch(`/sessions/${session.code}/participants/${voters[1]}`, {
                body: { role: 'observer' },
                ...as(owner),
              });
        expect(change.status).toBe(200);
        if ((await currentStory(session.code)) !== b || !(await revealed(a))) misses++;
      }
      expect(misses).toBe(0);
    });

    it('so does switching auto-reveal on once everyone has voted', async () => {
      let misses = 0;
      for (let i = 0; i < SOME; i++) {
        const session = await createSession();
        const a = (await addStory(session.code, 'A')).id;
        const b = (await addStory(session.code, 'B')).id;
        const voter = await join(session.code, 'Xi');
        expect((await vote(session.code, voter)).status).toBe(200);
        const on = await p.client.patch(`/sessions/${session.code}`, {
          body: { auto_reveal: true },
          ...as(owner),
        });
        expect(on.status).toBe(200);
        if ((await currentStory(session.code)) !== b || !(await revealed(a))) misses++;
      }
      expect(misses).toBe(0);
    });
  });
});
