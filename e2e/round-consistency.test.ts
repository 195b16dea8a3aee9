/**
 * What a response says has happened, the next request sees: each sequence a fast client (a script,
 * an assistant) runs with no pause, 100 times, through the gateway, with one and with two replicas
 * of the sessions and stories units behind a round-robin proxy. The room's stream gets vote.cast for
 * every vote that was accepted.
 */
import { jest } from '@jest/globals';
import { bearer, startPlatform, type Platform } from './support/platform.ts';

const RUNS = 100;
// A hundred runs of a sequence take seconds alone, and several times that beside the suite's other
// whole-platform tests on two cores.
jest.setTimeout(90_000);

describe.each([1, 2])('round consistency with %i replica(s) of each unit', (replicas) => {
  let p: Platform;
  let owner: string;
  beforeAll(async () => {
    p = await startPlatform({ replicas });
    owner = await p.signUp('Olga');
  });
  afterAll(() => p.stop());

  const asOwner = () => bearer(owner);
  const inRoom = (code: string) => ({ params: { path: { code } } });
  const ofStory = (story: string) => ({ params: { path: { story } } });
  const createSession = async () => {
    const res = await p.api.POST('/sessions', { body: { name: 'Sprint' }, ...asOwner() });
    expect(res.response.status).toBe(201);
    return res.data!.session;
  };
  const addStory = async (code: string, title: string) => {
    const res = await p.api.POST('/sessions/{code}/stories', {
      ...inRoom(code),
      body: { title },
      ...asOwner(),
    });
    expect(res.response.status).toBe(201);
    return res.data!.story;
  };
  const join = async (code: string, name: string) => {
    const res = await p.api.POST('/sessions/{code}/join', { ...inRoom(code), body: { name } });
    expect(res.response.status).toBe(200);
    return res.data!.participant.id;
  };
  const vote = (code: string, participantId: number, value = '5') =>
    p.api.POST('/sessions/{code}/vote', {
      ...inRoom(code),
      body: { participant_id: participantId, vote: value },
    });
  const currentStory = async (code: string) =>
    (await p.api.GET('/sessions/{code}', inRoom(code))).data?.session.current_story?.id ?? null;
  /** Reveals, resets or activates a story as the owner; the status of the answer. */
  const onStory = async (action: 'reveal' | 'reset' | 'activate', story: string) =>
    (await p.api.POST(`/stories/{story}/${action}`, { ...ofStory(story), ...asOwner() })).response.status;

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
      if (res.response.status !== 200 || res.data?.vote.story_id !== story.id) misses++;
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
      expect(await onStory('activate', target.id)).toBe(200);
      if ((await currentStory(session.code)) !== target.id) misses++;
      const res = await vote(session.code, voter);
      if (res.response.status !== 200 || res.data?.vote.story_id !== target.id) misses++;
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
      const revealed = await p.api.POST('/stories/{story}/reveal', { ...ofStory(stories[i]!), ...asOwner() });
      expect(revealed.response.status).toBe(200);
      expect(revealed.data?.next_story?.id).toBe(stories[i + 1]);
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
      expect((await vote(session.code, voter, '3')).response.status).toBe(200);
      voted.push(story.id);
      expect(await onStory('reveal', story.id)).toBe(200);
      expect(await onStory('reset', story.id)).toBe(200);
      const res = await vote(session.code, voter, '8');
      if (
        res.response.status !== 200 ||
        res.data?.vote.story_id !== story.id ||
        res.data.stats.votes_cast !== 1
      )
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
      (
        await p.api.GET('/sessions/{code}/activity', {
          params: { path: { code }, query: { limit: 10 } },
          ...asOwner(),
        })
      ).data!.activity;
    const shows = (events: Awaited<ReturnType<typeof activity>>, type: string, storyId: string) =>
      // An event's data is described as open (what the room showed): its story is read as the room reads it.
      events.filter((e) => e.type === type && (e.data.story as { id?: string } | undefined)?.id === storyId)
        .length === 1;
    for (let i = 0; i < RUNS / 4; i++) {
      const session = await createSession();
      const story = await addStory(session.code, 'Seen at once');
      const added = await activity(session.code);
      if (!shows(added, 'story.created', story.id))
        misses.push(`after the add: ${added.map((e) => e.type).join(', ')}`);
      expect(await onStory('reveal', story.id)).toBe(200);
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
      const switched = await p.api.PATCH('/sessions/{code}', {
        ...inRoom(session.code),
        body: { auto_reveal: true },
        ...asOwner(),
      });
      expect(switched.response.status).toBe(200);
      const a = await addStory(session.code, 'A');
      const b = await addStory(session.code, 'B');
      const voters = [await join(session.code, 'Vi'), await join(session.code, 'Wu')];
      return { session, a: a.id, b: b.id, voters };
    };
    const revealed = async (storyId: string) =>
      (await p.api.GET('/stories/{story}', { ...ofStory(storyId), ...asOwner() })).data?.story.status ===
      'revealed';
    const SOME = RUNS / 4;

    it('the lookup right after the last vote shows the next story, the voted one revealed', async () => {
      let misses = 0;
      for (let i = 0; i < SOME; i++) {
        const { session, a, b, voters } = await autoRoom();
        expect((await vote(session.code, voters[0]!, '3')).response.status).toBe(200);
        const last = await vote(session.code, voters[1]!, '5');
        expect(last.data?.stats.all_voted).toBe(true);
        if ((await currentStory(session.code)) !== b || !(await revealed(a))) misses++;
      }
      expect(misses).toBe(0);
    });

    it('so does removing the voter the round waited for, or making it an observer', async () => {
      let misses = 0;
      for (let i = 0; i < SOME; i++) {
        const { session, a, b, voters } = await autoRoom();
        expect((await vote(session.code, voters[0]!)).response.status).toBe(200);
        const voter = { params: { path: { code: session.code, id: voters[1]! } }, ...asOwner() };
        const change =
          i % 2 === 0
            ? await p.api.DELETE('/sessions/{code}/participants/{id}', voter)
            : await p.api.PATCH('/sessions/{code}/participants/{id}', {
                ...voter,
                body: { role: 'observer' },
              });
        expect(change.response.status).toBe(200);
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
        expect((await vote(session.code, voter)).response.status).toBe(200);
        const on = await p.api.PATCH('/sessions/{code}', {
          ...inRoom(session.code),
          body: { auto_reveal: true },
          ...asOwner(),
        });
        expect(on.response.status).toBe(200);
        if ((await currentStory(session.code)) !== b || !(await revealed(a))) misses++;
      }
      expect(misses).toBe(0);
    });
  });
});
